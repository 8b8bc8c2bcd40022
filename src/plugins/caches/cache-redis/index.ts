import { z } from "zod";
import { CACHE_DEFAULTS } from "../../../cache/defaults.js";
import { CacheEngine } from "../../../cache/engine.js";
import { CACHE_SERVICES, provideCache } from "../../../cache/provide.js";
import { createRedisBackend } from "../../../cache/redis-backend.js";
import { parseRedisUrl } from "../../../cache/redis-url.js";
import { definePlugin } from "../../../kernel/config.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";
import { errorMessage } from "../../../kernel/errors.js";
import { cacheSecret, MIN_SECRET_LENGTH } from "./secret.js";

export const cacheRedisOptionsSchema = z.strictObject({
  /** redis://HOST:PORT[/DB], or rediss:// for TLS. */
  url: z
    .string()
    .default("redis://127.0.0.1:6379")
    .superRefine((url, check) => {
      try {
        parseRedisUrl(url);
      } catch (error) {
        check.addIssue({ code: "custom", message: errorMessage(error) });
      }
    }),
  /** Starts every key: servers that should not share entries on one Redis use different ones. */
  prefix: z.string().min(1).max(100).default("skills-kernel"),
  defaultTtlMs: z.number().int().min(1).default(CACHE_DEFAULTS.defaultTtlMs),
  /** The longest one cache operation may take; past it the request goes to the source. */
  operationTimeoutMs: z.number().int().min(1).max(60_000).default(1_000),
  /** How long start waits for Redis before serving without it (reconnecting in the background). */
  connectTimeoutMs: z.number().int().min(1).max(60_000).default(2_000),
  /** Failures in a row that put the cache into "degraded". */
  failureThreshold: z.number().int().min(1).default(CACHE_DEFAULTS.failureThreshold),
  /** While degraded, how often one operation tries Redis again (a reconnect ends it at once). */
  retryAfterMs: z.number().int().min(1).default(CACHE_DEFAULTS.retryAfterMs),
  maxEntryBytes: z.number().int().min(1).default(CACHE_DEFAULTS.maxEntryBytes),
  /**
   * What entries are sealed with (docs/caching.md#sealed-entries); replicas sharing one Redis
   * share it. Default: SKILLS_KERNEL_CACHE_SECRET, else one kept in the user's cache folder.
   */
  secret: z
    .string()
    .min(MIN_SECRET_LENGTH, `the cache secret must be at least ${MIN_SECRET_LENGTH} characters`)
    .optional(),
});

/**
 * A cache in Redis: it outlives the process, so a restart starts warm, and servers sharing one
 * Redis share their entries. Redis is never required: down at start, the server starts and serves
 * from its sources, and the client reconnects in the background.
 */
export default definePlugin({
  name: "cache-redis",
  // The usage plugin counts in the same Redis, under the same prefix.
  provides: [...CACHE_SERVICES, INTERNAL_TOKENS.RedisCommands],
  options: cacheRedisOptionsSchema,
  // Without url it connects to 127.0.0.1:6379: a Redis the config's author did not run, either way.
  needsTrust: { plugin: "it caches skill texts in a Redis server, and reads them back" },
  async setup(ctx, options) {
    const location = parseRedisUrl(options.url);
    const backend = createRedisBackend({ location, connectTimeoutMs: options.connectTimeoutMs });
    // Whoever else can write to Redis must not be able to write what this server serves.
    const secret = await cacheSecret(options.secret, ctx.logger);
    const engine = new CacheEngine({ backend, logger: ctx.logger, ...options, secret });
    const { stop } = provideCache(ctx, engine);
    ctx.provide(INTERNAL_TOKENS.RedisCommands, {
      prefix: options.prefix,
      target: location.display,
      send: backend.send,
    });
    return {
      async start() {
        // Wait for the first connection, or its first failure, for a bounded time: a warm start
        // needs Redis from the first read, a cold one must not hang on it.
        let settle: () => void = () => {};
        const settled = new Promise<void>((resolve) => (settle = resolve));
        backend.subscribe({ ready: () => settle(), failed: () => settle() });
        const timer = setTimeout(settle, options.connectTimeoutMs);
        backend.connect().catch(() => {});
        await settled;
        clearTimeout(timer);
        if (backend.connection() !== "connected") {
          engine.reportOutage(
            `cannot reach Redis at ${location.display}${engine.lastErrorMessage ? ` (${engine.lastErrorMessage})` : ""}; serving from the sources and reconnecting in the background`,
          );
        }
      },
      stop,
    };
  },
});
