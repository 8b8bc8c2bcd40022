import type { Plugin } from "../kernel/types.js";

/**
 * Built-in plugins by short name. Each is imported only when a config names it, so a server that
 * does not use a plugin does not pay for loading it.
 */
export const builtinPlugins: Readonly<Record<string, () => Promise<Plugin<any>>>> = {
  fs: async () => (await import("./fs/index.js")).default,
  "list-skills": async () => (await import("./list-skills/index.js")).default,
};
