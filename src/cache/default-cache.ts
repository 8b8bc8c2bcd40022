import type { ServiceRef } from "../kernel/types.js";
import { TOKENS } from "../tokens.js";

/** cache-memory, loaded only for a kernel whose config names no cache plugin. */
const cacheMemory = async () => (await import("../plugins/caches/cache-memory/index.js")).default;

/**
 * The cache as a plugin consumes it: the config's cache plugin (cache-redis, or one of its own),
 * else cache-memory, which the kernel then boots for every consumer.
 */
export const CACHE = { token: TOKENS.Cache, optional: true, default: cacheMemory } satisfies ServiceRef;

/** How the cache is doing, from the same plugin as CACHE; none beside a cache plugin that reports nothing. */
export const CACHE_MONITOR = { token: TOKENS.CacheMonitor, optional: true, default: cacheMemory } satisfies ServiceRef;
