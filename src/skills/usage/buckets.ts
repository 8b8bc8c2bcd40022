import type { UsageCounter } from "./report.js";

/*
 * How usage figures are laid out in a store: one set of buckets per UTC day and caller group
 * (`*` for every caller), each dropped once the retention has passed it. Names are the usage
 * plugin's own; a store never reads them.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Every caller's figures, beside each group's. */
export const ALL_CALLERS = "*";

const LETTERS: Readonly<Record<UsageCounter, string>> = {
  searchHits: "s",
  firstHits: "f",
  reads: "r",
  fetches: "x",
  installs: "i",
};
const BY_LETTER = new Map(Object.entries(LETTERS).map(([counter, letter]) => [letter, counter as UsageCounter]));

/** The UTC day `at` falls in: `2025-06-01`. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The `days` days ending with the one `now` falls in, newest first. */
export function lastDays(now: number, days: number): string[] {
  return Array.from({ length: days }, (_, back) => dayOf(now - back * DAY_MS));
}

/** When a bucket of `day` goes: the end of that day plus the retention. */
export function expiryOf(day: string, retentionDays: number): number {
  return Date.parse(`${day}T00:00:00Z`) + (retentionDays + 1) * DAY_MS;
}

const group = (name: string) => encodeURIComponent(name);

export const BUCKETS = {
  /** Counters: a skill's counts, by `skillField`. */
  skills: (day: string, caller: string) => `skills/${day}/${group(caller)}`,
  /** Latest times: when each skill was last used, by `skillKey`. */
  lastUsed: (day: string, caller: string) => `last/${day}/${group(caller)}`,
  /** Counters: searches that missed, by their text. */
  misses: (day: string, caller: string) => `misses/${day}/${group(caller)}`,
  /** Latest times: when each miss was last seen, by its text. */
  lastMissed: (day: string, caller: string) => `missed/${day}/${group(caller)}`,
  /** Distinct set: who asked one miss (`queryId`). */
  missCallers: (day: string, caller: string, queryId: string) => `callers/${day}/${group(caller)}/${queryId}`,
} as const;

/** A skill as figures know it: by source and name, which the report gives. */
export interface SkillKey {
  readonly source: string;
  readonly name: string;
}

export function skillKey({ source, name }: SkillKey): string {
  return JSON.stringify([source, name]);
}

/** The field of one skill's counter. */
export function skillField(skill: SkillKey, counter: UsageCounter): string {
  return JSON.stringify([skill.source, skill.name, LETTERS[counter]]);
}

/** A field read back from a store (which anyone with access to it may have written): its parts, or undefined. */
export function parseSkillField(
  field: string,
): { readonly skill: SkillKey; readonly counter?: UsageCounter } | undefined {
  let parts: unknown;
  try {
    parts = JSON.parse(field);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length < 2 || parts.length > 3) return undefined;
  const [source, name, letter] = parts as unknown[];
  if (typeof source !== "string" || typeof name !== "string") return undefined;
  if (parts.length === 2) return { skill: { source, name } };
  const counter = typeof letter === "string" ? BY_LETTER.get(letter) : undefined;
  return counter === undefined ? undefined : { skill: { source, name }, counter };
}
