import type { Plugin } from "../kernel/types.js";

/**
 * Built-in plugins by short name. Each is imported only when a config names it, so a server that
 * does not use a plugin does not pay for loading it.
 */
export const builtinPlugins: Readonly<Record<string, () => Promise<Plugin<any>>>> = {
  fs: async () => (await import("./fs/index.js")).default,
  git: async () => (await import("./git/index.js")).default,
  github: async () => (await import("./github/index.js")).default,
  "http-catalog": async () => (await import("./http-catalog/index.js")).default,
  registry: async () => (await import("./registry/index.js")).default,
  "list-skills": async () => (await import("./list-skills/index.js")).default,
  "search-skills": async () => (await import("./search-skills/index.js")).default,
  "ranker-bm25": async () => (await import("./ranker-bm25/index.js")).default,
  "ranker-fuse": async () => (await import("./ranker-fuse/index.js")).default,
  "ranker-hybrid": async () => (await import("./ranker-hybrid/index.js")).default,
  "read-skill": async () => (await import("./read-skill/index.js")).default,
  "fetch-skill-files": async () => (await import("./fetch-skill-files/index.js")).default,
  "skill-resources": async () => (await import("./skill-resources/index.js")).default,
  "skills-extension": async () => (await import("./skills-extension/index.js")).default,
  "skill-prompts": async () => (await import("./skill-prompts/index.js")).default,
  "catalog-summary": async () => (await import("./catalog-summary/index.js")).default,
  "validate-skill": async () => (await import("./validate-skill/index.js")).default,
  "install-skill": async () => (await import("./install-skill/index.js")).default,
  "skill-policy": async () => (await import("./skill-policy/index.js")).default,
  "audit-skill": async () => (await import("./audit-skill/index.js")).default,
  http: async () => (await import("./http/index.js")).default,
  "rest-api": async () => (await import("./rest-api/index.js")).default,
  "cache-memory": async () => (await import("./cache-memory/index.js")).default,
  "cache-redis": async () => (await import("./cache-redis/index.js")).default,
  "cache-stats": async () => (await import("./cache-stats/index.js")).default,
};
