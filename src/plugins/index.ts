import type { Plugin } from "../kernel/types.js";

/**
 * Built-in plugins by short name. Each is imported only when a config names it, so a server that
 * does not use a plugin does not pay for loading it.
 */
export const builtinPlugins: Readonly<Record<string, () => Promise<Plugin<any>>>> = {
  fs: async () => (await import("./sources/fs/index.js")).default,
  git: async () => (await import("./sources/git/index.js")).default,
  github: async () => (await import("./sources/github/index.js")).default,
  "http-catalog": async () => (await import("./sources/http-catalog/index.js")).default,
  archive: async () => (await import("./sources/archive/index.js")).default,
  registry: async () => (await import("./sources/registry/index.js")).default,
  "list-skills": async () => (await import("./tools/list-skills/index.js")).default,
  "search-skills": async () => (await import("./tools/search-skills/index.js")).default,
  "ranker-bm25": async () => (await import("./rankers/ranker-bm25/index.js")).default,
  "ranker-fuse": async () => (await import("./rankers/ranker-fuse/index.js")).default,
  "ranker-hybrid": async () => (await import("./rankers/ranker-hybrid/index.js")).default,
  "ranker-semantic": async () => (await import("./rankers/ranker-semantic/index.js")).default,
  "read-skill": async () => (await import("./tools/read-skill/index.js")).default,
  "fetch-skill-files": async () => (await import("./tools/fetch-skill-files/index.js")).default,
  "skill-resources": async () => (await import("./mcp/skill-resources/index.js")).default,
  "skills-extension": async () => (await import("./mcp/skills-extension/index.js")).default,
  "skill-prompts": async () => (await import("./mcp/skill-prompts/index.js")).default,
  "catalog-summary": async () => (await import("./mcp/catalog-summary/index.js")).default,
  "validate-skill": async () => (await import("./tools/validate-skill/index.js")).default,
  "install-skill": async () => (await import("./tools/install-skill/index.js")).default,
  "skill-policy": async () => (await import("./core/skill-policy/index.js")).default,
  usage: async () => (await import("./core/usage/index.js")).default,
  "audit-skill": async () => (await import("./tools/audit-skill/index.js")).default,
  stdio: async () => (await import("./transports/stdio/index.js")).default,
  http: async () => (await import("./transports/http/index.js")).default,
  "catalog-page": async () => (await import("./routes/catalog-page/index.js")).default,
  "well-known": async () => (await import("./routes/well-known/index.js")).default,
  metrics: async () => (await import("./routes/metrics/index.js")).default,
  "rest-api": async () => (await import("./routes/rest-api/index.js")).default,
  "cache-memory": async () => (await import("./caches/cache-memory/index.js")).default,
  "cache-redis": async () => (await import("./caches/cache-redis/index.js")).default,
  "cache-stats": async () => (await import("./tools/cache-stats/index.js")).default,
};
