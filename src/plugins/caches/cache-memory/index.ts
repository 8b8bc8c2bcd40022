import { z } from "zod";
import { CACHE_DEFAULTS } from "../../../cache/defaults.js";
import { CacheEngine } from "../../../cache/engine.js";
import { createMemoryBackend } from "../../../cache/memory-backend.js";
import { CACHE_SERVICES, provideCache } from "../../../cache/provide.js";
import { definePlugin } from "../../../kernel/config.js";

export const cacheMemoryOptionsSchema = z.strictObject({
  /** The most the entries may hold together, in bytes of serialized JSON (about). */
  maxBytes: z.number().int().min(1024).default(CACHE_DEFAULTS.memoryMaxBytes),
  maxEntries: z.number().int().min(1).default(CACHE_DEFAULTS.memoryMaxEntries),
  /** How long an entry lives when its writer names no TTL. */
  defaultTtlMs: z.number().int().min(1).default(CACHE_DEFAULTS.defaultTtlMs),
});

/**
 * The default cache: a size-bounded LRU in this process. It lasts as long as the process, so it
 * saves work within a server's life (a reload after one SKILL.md changed re-parses that file
 * alone), never across restarts: that is what cache-redis is for.
 */
export default definePlugin({
  name: "cache-memory",
  provides: CACHE_SERVICES,
  options: cacheMemoryOptionsSchema,
  setup(ctx, options) {
    const engine = new CacheEngine({
      backend: createMemoryBackend({ maxBytes: options.maxBytes, maxEntries: options.maxEntries }),
      logger: ctx.logger,
      prefix: "skills-kernel",
      defaultTtlMs: options.defaultTtlMs,
      // Memory answers at once; the deadline and breaker only matter for a remote store.
      operationTimeoutMs: 1_000,
      failureThreshold: CACHE_DEFAULTS.failureThreshold,
      retryAfterMs: CACHE_DEFAULTS.retryAfterMs,
      maxEntryBytes: CACHE_DEFAULTS.maxEntryBytes,
    });
    return provideCache(ctx, engine);
  },
});
