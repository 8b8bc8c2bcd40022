import { systemClock, unref, type Clock } from "../kernel/clock.js";
import type { SourceFreshness } from "../skills/types.js";

/**
 * A remote source cannot be told when it changes, so a served kernel asks again once what it
 * fetched is due for revalidation: `watch` for a source whose content expires after `ttlMs`.
 * Undefined when it never expires (a pinned commit) or expires at once (ttlMs 0: every load
 * revalidates, and polling that often would be a busy loop).
 */
export function pollEvery(
  ttlMs: number | undefined,
  clock: Clock = systemClock,
): ((onChange: () => void) => () => void) | undefined {
  if (ttlMs === undefined || ttlMs < 1000) return undefined;
  return (onChange) => {
    // unref: a one-shot command never waits for the next poll.
    const timer = clock.setInterval(onChange, ttlMs);
    unref(timer);
    return () => clock.clearInterval(timer);
  };
}

/**
 * The freshness of a source whose content expires after `ttlMs` (CatalogSource.freshness): it may
 * change that often; undefined for content that never expires (a pinned commit).
 */
export function pollFreshness(ttlMs: number | undefined): SourceFreshness | undefined {
  return ttlMs === undefined ? undefined : { refreshMs: ttlMs };
}
