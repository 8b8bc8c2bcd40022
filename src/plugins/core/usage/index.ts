import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";
import type { Logger } from "../../../kernel/logger.js";
import type { SourceVisibility } from "../../../skills/catalog/visibility.js";
import type { SkillKey } from "../../../skills/usage/buckets.js";
import type { UsageStore } from "../../../skills/usage/store.js";
import { TOKENS } from "../../../tokens.js";
import { FileUsageStore } from "./file-store.js";
import { countLocalInstalls, usageFile } from "./local-installs.js";
import { MemoryUsageStore } from "./memory-store.js";
import { usageObserver } from "./observer.js";
import { RedisUsageStore } from "./redis-store.js";
import { UsageService } from "./service.js";

/** How often counted figures are written to the store. */
const FLUSH_INTERVAL_MS = 1_000;
/** How often the in-process store's file is brought up to date. */
const SAVE_INTERVAL_MS = 30_000;
/** How old the uses behind `popularity` may get before they are read again: they change the instructions, so seldom. */
const RANK_INTERVAL_MS = 10 * 60_000;
/** How long stopping waits for the last figures to be written. */
const STOP_WRITE_MS = 1_000;

export const usageOptionsSchema = z.strictObject({
  /** Days of figures kept: each day's bucket goes this long after the day ends. */
  retentionDays: z.number().int().min(1).max(3650).default(90),
  /** False: count misses but keep none of their text (counts only). */
  recordQueries: z.boolean().default(true),
  /** The scope a signed-in caller needs to read the figures over HTTP (with a static token, its holder reads them). */
  operatorScope: z.string().min(1).default("skills:admin"),
  /** The days the uses behind `popularity` (the catalog summary's choice of examples) look back. */
  rankDays: z.number().int().min(1).max(3650).default(30),
  /** Distinct miss texts this process starts recording per day; more are counted as lost. */
  maxMissesPerDay: z.number().int().min(0).max(100_000).default(1_000),
  /** Fields the in-process store holds at most, over every day and group. */
  maxEntries: z.number().int().min(1_000).max(10_000_000).default(200_000),
  /** How long writing the figures, or reading them for a report, may take before it is given up. */
  timeoutMs: z.number().int().min(1).max(60_000).default(2_000),
  /** The cache folder the in-process store is kept in (relative to the config's folder, `~` to home). Default: the user's. */
  cacheDir: z.string().min(1).optional(),
  /** False: keep the in-process figures in memory only, gone with the process. */
  diskCache: z.boolean().default(true),
});

/**
 * Which skills are used, by whom (caller groups), and what was searched for in vain: counted as
 * the server answers (one observer of every request and tool result), kept per day in a store
 * (the cache folder, or Redis beside cache-redis, or a plugin's own engine), read by operators
 * (`GET /v1/usage` with rest-api, the catalog page, `skills-kernel usage`) and by whatever orders
 * skills by use (`TOKENS.SkillPopularity`, which the catalog summary's examples favour).
 */
export default definePlugin({
  name: "usage",
  provides: [TOKENS.Usage, TOKENS.SkillPopularity, TOKENS.RequestObserver],
  consumes: [
    // Who may see which source makes the caller groups.
    { token: TOKENS.UsageStore, optional: true, wholeCatalog: true },
    { token: INTERNAL_TOKENS.RedisCommands, optional: true },
    { token: TOKENS.SourceVisibility, optional: true, fromStart: true, wholeCatalog: true },
    { token: TOKENS.MetricsRecorder, optional: true },
  ],
  options: usageOptionsSchema,
  setup(ctx, options) {
    const redis = ctx.resolveOptional(INTERNAL_TOKENS.RedisCommands);
    const now = () => Date.now();
    let store: UsageStore | undefined = ctx.resolveOptional(TOKENS.UsageStore);
    let file: FileUsageStore | undefined;
    if (!store && redis) store = new RedisUsageStore(redis);
    if (!store && options.diskCache) {
      store = file = new FileUsageStore(usageFile(options.cacheDir, ctx.baseDir), options.maxEntries, now, ctx.logger);
    }
    store ??= new MemoryUsageStore("memory", options.maxEntries, now);
    // The file is read in the background from start on: the first answers never wait for it.
    let startOpening: () => void = () => {};
    const opened = new Promise<void>((resolve) => {
      startOpening = () => resolve(file?.open());
    });
    let visibilities: readonly SourceVisibility[] = [];
    const service = new UsageService({
      ...options,
      store,
      opened,
      writeTimeoutMs: options.timeoutMs,
      maxPendingFields: options.maxEntries,
      visibilities: () => visibilities,
      rankEveryMs: RANK_INTERVAL_MS,
      metrics: ctx.resolveOptional(TOKENS.MetricsRecorder),
      logger: ctx.logger,
      now,
    });
    ctx.provide(TOKENS.Usage, service);
    ctx.provide(TOKENS.SkillPopularity, (skill) => service.popularity(skill));
    ctx.contribute(TOKENS.RequestObserver, usageObserver(service));

    const timers: ReturnType<typeof setInterval>[] = [];
    const every = (ms: number, work: () => Promise<void>) => {
      const timer = setInterval(() => void work().catch(() => undefined), ms);
      timer.unref();
      timers.push(timer);
    };
    return {
      start(started) {
        visibilities = started.resolveAll(TOKENS.SourceVisibility);
        startOpening();
        every(FLUSH_INTERVAL_MS, () => service.flush());
        if (file) every(SAVE_INTERVAL_MS, async () => file!.save());
      },
      async stop() {
        for (const timer of timers) clearInterval(timer);
        await Promise.race([service.flush(), new Promise((resolve) => setTimeout(resolve, STOP_WRITE_MS).unref())]);
        await store!.close?.();
      },
    };
  },
});

/** For the CLI's add, which runs with no config: installs counted in the cache folder's store, with the plugin's defaults. */
export const countAddedSkills = (skills: readonly SkillKey[], logger: Logger) =>
  countLocalInstalls(skills, usageOptionsSchema.parse({}), logger);
