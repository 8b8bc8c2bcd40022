/** What a cache stores: plain JSON, so every backend (memory, Redis) holds the same thing. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A key-value cache shared by plugins, under TOKENS.Cache. Each plugin that resolves it gets a
 * view scoped to its own namespace (its name), so two plugins never collide; `scope` narrows it
 * further. A cache is an optimisation: every method resolves even when the backend is down
 * (a miss, a write dropped), so a caller never needs a fallback path of its own.
 */
export interface Cache {
  /** The namespace this view reads and writes, e.g. "fs" or "fs/index". */
  readonly namespace: string;
  /** The value stored under `key`, or undefined (missing, expired, unreadable, or the backend is down). */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined>;
  /** Store `value` under `key`, for `ttlMs` milliseconds (default: the backend's). */
  set(key: string, value: JsonValue, ttlMs?: number): Promise<void>;
  /** Remove the value under `key`, if any (a no-op when the backend is down). */
  delete(key: string): Promise<void>;
  /** A view under a sub-namespace of this one. */
  scope(name: string): Cache;
}

/** Where a cache backend stands: "degraded" skips the cache until the backend is back. */
export type CacheState = "connected" | "degraded" | "reconnecting";

/** What get_cache_stats reports about the cache backend, from {@link CacheMonitor.stats}. */
export interface CacheStats {
  /** "memory" or "redis". */
  readonly backend: string;
  /** Where entries live, for an operator (the Redis address without a password, or this process's limits). */
  readonly target: string;
  /** "degraded": the breaker is open and requests skip the cache until the backend is back. */
  readonly state: CacheState;
  /** Reads that found a value, since the process started. */
  readonly hits: number;
  /** Reads that found nothing (or an unreadable value), since the process started. */
  readonly misses: number;
  /** hits / (hits + misses); null before the first read. */
  readonly hitRatio: number | null;
  /** Operations that failed, timed out or were refused (a value too large to store). */
  readonly errors: number;
  /** Operations not even tried because the cache was degraded. */
  readonly bypassed: number;
  /** Entries per namespace, or null when the backend could not be asked (degraded, too slow). */
  readonly entries: Readonly<Record<string, number>> | null;
  /** False when the count stopped at its limit (or is null). */
  readonly entriesComplete: boolean;
  /** The latest failed operation's message and ISO time, or null when none failed. */
  readonly lastError: { readonly message: string; readonly at: string } | null;
  /** Milliseconds since the cache engine started. */
  readonly uptimeMs: number;
}

/**
 * What a cache backend tells about itself, under TOKENS.CacheMonitor: the contract a cache plugin
 * fulfils for get_cache_stats, the HTTP transport's /readyz and the fs source's snapshots. A
 * backend plugin provides it beside TOKENS.Cache, and lists both in `provides`.
 */
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
