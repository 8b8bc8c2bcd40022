import { readFileSync } from "node:fs";

/** Where Linux keeps the per-user limit on inotify watches. */
const INOTIFY_LIMIT_FILE = "/proc/sys/fs/inotify/max_user_watches";

/** Elsewhere, and where the limit cannot be read: the old, cautious default. */
const FALLBACK_LIMIT = 2000;

/**
 * The default for maxWatchedDirectories: on Linux, three quarters of the per-user inotify limit
 * (8,192 on old systems, about 190,000 on this kind of machine, up to 1,048,576 with much memory),
 * leaving a quarter to the editors and tools that share it. A watch costs nothing while nothing
 * changes, where polling the same folder costs a stat every few seconds, forever.
 */
export function defaultWatchLimit(limitFile = INOTIFY_LIMIT_FILE): number {
  if (process.platform !== "linux") return FALLBACK_LIMIT;
  try {
    const limit = Number.parseInt(readFileSync(limitFile, "utf8"), 10);
    return Number.isSafeInteger(limit) && limit > 0 ? Math.floor(limit * 0.75) : FALLBACK_LIMIT;
  } catch {
    return FALLBACK_LIMIT;
  }
}
