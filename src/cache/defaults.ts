const MiB = 1024 * 1024;

/** Option defaults both cache plugins share. */
export const CACHE_DEFAULTS = {
  /** Long enough that a warm restart after a weekend is still warm; stale keys age out. */
  defaultTtlMs: 7 * 24 * 60 * 60 * 1000,
  /** Larger entries are not worth a round trip (and would crowd out everything else). */
  maxEntryBytes: 1 * MiB,
  failureThreshold: 5,
  retryAfterMs: 2_000,
  memoryMaxBytes: 64 * MiB,
  memoryMaxEntries: 100_000,
} as const;
