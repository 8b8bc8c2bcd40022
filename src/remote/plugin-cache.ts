import { join } from "node:path";
import type { Cache, CacheMonitor } from "../kernel/cache.js";
import type { Token } from "../kernel/tokens.js";
import type { PluginRuntimeContext } from "../kernel/types.js";
import { TOKENS } from "../tokens.js";
import { createDiskCache } from "./disk-cache.js";

/**
 * The cache a remote source plugin keeps what it fetched in: the configured cache plugin's when its
 * entries outlive the process (Redis, or a cache plugin of one's own), already scoped to this
 * plugin; else (the default in-process cache) files under the user's cache folder, so that the
 * next start answers from what this one fetched. A plugin calling it consumes
 * `[TOKENS.Cache, { token: TOKENS.CacheMonitor, optional: true }]`.
 */
export function pluginCache(ctx: PluginRuntimeContext<Token<Cache> | Token<CacheMonitor>>, cacheRoot: string): Cache {
  const shared = ctx.resolveOptional(TOKENS.Cache);
  const persistent = ctx.resolveOptional(TOKENS.CacheMonitor)?.persistent ?? true;
  return shared && persistent ? shared : createDiskCache(join(cacheRoot, "documents"), ctx.name);
}
