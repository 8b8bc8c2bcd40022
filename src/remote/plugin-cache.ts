import { join } from "node:path";
import type { Cache } from "../kernel/cache.js";
import type { PluginRuntimeContext, ServiceRef } from "../kernel/types.js";
import { TOKENS } from "../tokens.js";
import { CACHE, CACHE_MONITOR } from "../cache/default-cache.js";
import { createDiskCache } from "./disk-cache.js";

/** What pluginCache resolves: a plugin that calls it lists these in its `consumes`. */
export const PLUGIN_CACHE_SERVICES: readonly ServiceRef[] = [CACHE, CACHE_MONITOR];

/**
 * The cache a remote source plugin keeps what it fetched in: the configured cache plugin's when its
 * entries outlive the process (Redis, or a cache plugin of one's own), already scoped to this
 * plugin; else (the default in-process cache) files under the user's cache folder, so that the
 * next start answers from what this one fetched.
 */
export function pluginCache(ctx: PluginRuntimeContext, cacheRoot: string): Cache {
  const shared = ctx.resolveOptional(TOKENS.Cache);
  const persistent = ctx.resolveOptional(TOKENS.CacheMonitor)?.persistent ?? true;
  return shared && persistent ? shared : createDiskCache(join(cacheRoot, "documents"), ctx.name);
}
