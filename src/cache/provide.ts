import type { PluginContext, PluginHooks } from "../kernel/types.js";
import type { CacheEngine } from "./engine.js";
import { TOKENS } from "../tokens.js";

/** The services every cache backend plugin provides. */
export const CACHE_SERVICES = [TOKENS.Cache, TOKENS.CacheMonitor] as const;

/**
 * Offer `engine` as TOKENS.Cache, each consuming plugin getting its own namespace (its name), and
 * as the monitor get_cache_stats reads. The engine is closed with the kernel.
 */
export function provideCache(ctx: PluginContext, engine: CacheEngine): Required<Pick<PluginHooks, "stop">> {
  ctx.provideScoped(TOKENS.Cache, (consumer) => engine.view(consumer.name));
  ctx.provide(TOKENS.CacheMonitor, engine);
  return { stop: () => engine.close() };
}
