import { defineToken } from "../kernel/tokens.js";
import type { CacheState, CacheStats } from "./engine.js";

/** What a cache backend tells about itself, for get_cache_stats. */
export interface CacheMonitor {
  /** Whether entries outlive the process (Redis), or go with it (memory). */
  readonly persistent: boolean;
  /** Where the backend stands now, without a round trip (health checks poll it). */
  readonly state: CacheState;
  /** Everything get_cache_stats reports; for Redis this scans the keys, so it is not for polling. */
  stats(): Promise<CacheStats>;
  /** Hits, misses, errors and operations bypassed so far, without a round trip (a metrics scrape). */
  counts(): Readonly<Pick<CacheStats, "hits" | "misses" | "errors" | "bypassed">>;
  /**
   * Be told each time the backend is reachable again (Redis back after a restart, maybe empty);
   * returns a function that stops it. A backend that cannot lose its connection never calls.
   */
  onReady?(listener: () => void): () => void;
}

export const CACHE_TOKENS = {
  /** Provided by the cache backend plugin next to TOKENS.Cache. */
  CacheMonitor: defineToken<CacheMonitor>("cache-monitor"),
} as const;
