import type { CacheStats } from "../../../kernel/cache.js";

/**
 * The tool's structured answer: the stats, in the snake_case the other tools answer in. `withheld`:
 * the entries are not shown (they count those of skills the caller may not see).
 */
export function toAnswer(stats: CacheStats, withheld = false) {
  return {
    backend: stats.backend,
    target: stats.target,
    state: stats.state,
    hits: stats.hits,
    misses: stats.misses,
    hit_ratio: stats.hitRatio,
    errors: stats.errors,
    bypassed: stats.bypassed,
    entries: withheld ? null : stats.entries,
    entries_complete: withheld ? false : stats.entriesComplete,
    ...(withheld && { entries_withheld: true }),
    last_error: stats.lastError,
    uptime_seconds: Math.round(stats.uptimeMs / 100) / 10,
  };
}

export type CacheStatsAnswer = ReturnType<typeof toAnswer>;

export function renderAnswer(answer: CacheStatsAnswer): string {
  const ratio = answer.hit_ratio === null ? "no reads yet" : `${(answer.hit_ratio * 100).toFixed(1)}% hits`;
  const namespaces =
    answer.entries === null ? [] : Object.entries(answer.entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const entries = answer.entries_withheld
    ? ["entries: not shown, since they count skills of sources this caller may not see"]
    : answer.entries === null
      ? ["entries: unknown (the backend was not asked or did not answer)"]
      : namespaces.length === 0
        ? ["entries: none"]
        : [
            `entries${answer.entries_complete ? "" : " (at least)"}:`,
            ...namespaces.map(([namespace, count]) => `  ${namespace}: ${count}`),
          ];
  return [
    `backend: ${answer.backend} (${answer.target})`,
    `state: ${answer.state}`,
    `reads: ${answer.hits} hits, ${answer.misses} misses (${ratio})`,
    `errors: ${answer.errors}; skipped while degraded: ${answer.bypassed}`,
    ...entries,
    `last error: ${answer.last_error ? `${answer.last_error.message} (${answer.last_error.at})` : "none"}`,
    `uptime: ${answer.uptime_seconds} s`,
  ].join("\n");
}
