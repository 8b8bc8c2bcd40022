import type { ResolvedPluginEntry } from "../kernel/plugin-resolver.js";
import { KERNEL_TOKENS } from "../kernel/tokens.js";
import type { Plugin } from "../kernel/types.js";

/**
 * The plugin list with `fallback` (cache-memory) added when no plugin in it provides the cache,
 * so every kernel has one: a config names cache-redis (or a cache of its own) to replace it.
 */
export function withDefaultCache(plugins: ResolvedPluginEntry[], fallback: Plugin<any>): ResolvedPluginEntry[] {
  const hasCache = plugins.some((entry) => entry.plugin.provides?.includes(KERNEL_TOKENS.Cache));
  return hasCache ? plugins : [{ plugin: fallback, options: undefined, origin: "core" }, ...plugins];
}
