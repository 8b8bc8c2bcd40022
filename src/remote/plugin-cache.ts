import { join } from "node:path";
import type { Cache } from "../kernel/cache.js";
import type { PluginRuntimeContext } from "../kernel/types.js";
import { TOKENS } from "../tokens.js";
import { createDiskCache } from "./disk-cache.js";

/**
 * The cache a remote source plugin keeps what it fetched in: the configured cache plugin's (memory,
 * Redis), already scoped to this plugin, else files under the user's cache folder, so that even
 * without one the next start answers from what this one fetched.
 */
export function pluginCache(ctx: PluginRuntimeContext, cacheRoot: string): Cache {
  return ctx.resolveOptional(TOKENS.Cache) ?? createDiskCache(join(cacheRoot, "documents"), ctx.name);
}
