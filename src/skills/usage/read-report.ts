import { ALL_CALLERS, BUCKETS, lastDays, parseSkillField, skillKey, type SkillKey } from "./buckets.js";
import type { MissFigures, SkillUsageFigures, UsageCounter, UsageQuery, UsageReport } from "./report.js";
import type { UsageStore } from "./store.js";
import { queryId } from "./tally.js";

/** Misses a report lists at most, most asked first. */
export const MAX_REPORTED_MISSES = 100;
/** Longest text a stored field may hold when read back: anything longer was not written by this code. */
const MAX_STORED_TEXT = 1_000;

type Counts = Record<UsageCounter, number>;
const zero = (): Counts => ({ searchHits: 0, firstHits: 0, reads: 0, fetches: 0, installs: 0 });

/** Uses that are uses (a read, a fetch, an install), then being found: the report's order. */
export function usesOf(figures: Counts): number {
  return figures.reads + figures.fetches + figures.installs;
}

/** Most used first: uses, then search hits, then the latest use, then by source and name. */
export function byUse(a: SkillUsageFigures, b: SkillUsageFigures): number {
  return (
    usesOf(b) - usesOf(a) ||
    b.searchHits - a.searchHits ||
    (b.lastUsed ?? "").localeCompare(a.lastUsed ?? "") ||
    (a.source < b.source ? -1 : a.source > b.source ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}

/** A count read back from a store: a whole number of at least 0, else nothing. */
function count(value: number | undefined): number {
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

function iso(at: number | undefined): string | null {
  return at !== undefined && Number.isFinite(at) && at > 0 && at < 8.64e15 ? new Date(at).toISOString() : null;
}

/**
 * The report of `query.days` days ending with the one `now` falls in, read from `store`: every
 * skill the reader's catalog shows (unused ones last, at zero), and those no source serves now
 * when their source is one the reader sees, or `query.unserved`; the misses most asked first. Skills of sources the reader cannot see
 * are never read into it. Values read back are checked, since whoever may write the store may
 * have written them.
 */
export async function readReport(store: UsageStore, query: UsageQuery, now: number): Promise<UsageReport> {
  const days = lastDays(now, query.days);
  const group = query.group ?? ALL_CALLERS;
  const catalog = query.catalog;
  const shown = new Set(catalog.sources.map((source) => source.name));
  const unserved = query.unserved ?? !catalog.restricted;
  const [rows, missCounters, lastMissed] = await Promise.all([
    readSkillRows(store, days, group, catalog.list(), (source) => unserved || shown.has(source)),
    store.counters(days.map((day) => BUCKETS.misses(day, group))),
    store.latest(days.map((day) => BUCKETS.lastMissed(day, group))),
  ]);
  const skills = [...rows.values()]
    .map(({ source, name, counts, last }) => ({ name, source, ...counts, lastUsed: iso(last) }))
    .sort(byUse);

  const asked = new Map<string, { count: number; last: number }>();
  for (const bucket of missCounters) {
    for (const [text, value] of bucket) {
      if (text.length === 0 || text.length > MAX_STORED_TEXT) continue;
      const entry = asked.get(text) ?? { count: 0, last: 0 };
      entry.count += count(value);
      asked.set(text, entry);
    }
  }
  for (const bucket of lastMissed) {
    for (const [text, at] of bucket) {
      const entry = asked.get(text);
      if (entry && iso(at) !== null && entry.last < at) entry.last = at;
    }
  }
  const top = [...asked]
    .filter(([, entry]) => entry.count > 0)
    .sort(([a, x], [b, y]) => y.count - x.count || y.last - x.last || (a < b ? -1 : 1))
    .slice(0, MAX_REPORTED_MISSES);
  const misses: MissFigures[] = await Promise.all(
    top.map(async ([text, entry]) => {
      const id = queryId(text);
      const callers = await store.countDistinct(days.map((day) => BUCKETS.missCallers(day, group, id)));
      return {
        query: text,
        count: entry.count,
        callers: Math.max(1, count(callers)),
        lastSeen: iso(entry.last) ?? new Date(0).toISOString(),
      };
    }),
  );
  return { days: query.days, skills, misses };
}

interface SkillRow {
  readonly source: string;
  readonly name: string;
  readonly counts: Counts;
  last?: number;
}

/**
 * Each skill's counts and latest use over `days`: a row for every skill of `listed` (at zero when
 * unused), and one for each stored skill of a source `keeps` admits.
 */
async function readSkillRows(
  store: UsageStore,
  days: readonly string[],
  group: string,
  listed: readonly SkillKey[],
  keeps: (source: string) => boolean,
): Promise<Map<string, SkillRow>> {
  const [skillCounters, lastUsed] = await Promise.all([
    store.counters(days.map((day) => BUCKETS.skills(day, group))),
    store.latest(days.map((day) => BUCKETS.lastUsed(day, group))),
  ]);
  const rows = new Map<string, SkillRow>();
  for (const skill of listed) {
    const key = skillKey(skill);
    if (!rows.has(key)) rows.set(key, { source: skill.source, name: skill.name, counts: zero() });
  }
  const rowOf = (source: string, name: string) => {
    const key = skillKey({ source, name });
    let row = rows.get(key);
    if (row) return row;
    // A skill its source no longer serves: shown to whoever may see that source, or every source.
    if (!keeps(source)) return undefined;
    if (source.length > MAX_STORED_TEXT || name.length > MAX_STORED_TEXT) return undefined;
    rows.set(key, (row = { source, name, counts: zero() }));
    return row;
  };
  for (const bucket of skillCounters) {
    for (const [field, value] of bucket) {
      const parsed = parseSkillField(field);
      if (!parsed?.counter) continue;
      const row = rowOf(parsed.skill.source, parsed.skill.name);
      if (row) row.counts[parsed.counter] += count(value);
    }
  }
  for (const bucket of lastUsed) {
    for (const [field, at] of bucket) {
      const parsed = parseSkillField(field);
      if (!parsed || parsed.counter) continue;
      const row = rowOf(parsed.skill.source, parsed.skill.name);
      if (row && iso(at) !== null && (row.last ?? 0) < at) row.last = at;
    }
  }
  return rows;
}

/**
 * The uses (reads, fetches, installs) of every skill used in `days` days ending with the one `now`
 * falls in, by `skillKey`, whatever serves it now: what ranks skills by use, with no row for the
 * skills never used, no sort and no misses, so a start pays nothing per skill of its catalog.
 */
export async function readUses(store: UsageStore, days: number, now: number): Promise<Map<string, number>> {
  const rows = await readSkillRows(store, lastDays(now, days), ALL_CALLERS, [], () => true);
  const uses = new Map<string, number>();
  for (const [key, row] of rows) if (usesOf(row.counts) > 0) uses.set(key, usesOf(row.counts));
  return uses;
}
