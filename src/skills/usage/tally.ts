import { createHash } from "node:crypto";
import { ALL_CALLERS, BUCKETS, DAY_MS, dayOf, expiryOf, skillField, skillKey, type SkillKey } from "./buckets.js";
import type { UsageCounter } from "./report.js";
import type { UsageStore } from "./store.js";

/** A bucket's pending fields, with the day it belongs to (its expiry follows from it). */
interface Pending<T> {
  readonly day: string;
  readonly fields: T;
}

/** What has been counted since the last write, ready to be written. */
export interface PendingUsage {
  readonly counters: ReadonlyMap<string, Pending<Map<string, number>>>;
  readonly latest: ReadonlyMap<string, Pending<Map<string, number>>>;
  readonly distinct: ReadonlyMap<string, Pending<Set<string>>>;
}

export interface TallyLimits {
  /** Fields held between two writes; past it, new ones are dropped (a store that cannot keep up). */
  readonly maxPendingFields: number;
  /** Distinct miss texts this process records per day; past it, new ones are dropped. */
  readonly maxMissesPerDay: number;
}

/** What a miss is known by in bucket names: a hash of its text, which may hold anything. */
export function queryId(query: string): string {
  return createHash("sha256").update(query).digest("hex").slice(0, 16);
}

/**
 * The figures counted in this process since the last write. Counting only adds to maps, so it
 * costs an answer next to nothing; `take` hands them over for a write in the background. Bounded:
 * between two writes it holds at most `maxPendingFields` fields, and over a day it starts at
 * most `maxMissesPerDay` miss texts, so neither a store that is down nor a stream of made-up
 * queries can make it grow without end. What is dropped is counted.
 */
export class UsageTally {
  #counters = new Map<string, Pending<Map<string, number>>>();
  #latest = new Map<string, Pending<Map<string, number>>>();
  #distinct = new Map<string, Pending<Set<string>>>();
  #held = 0;
  #dropped = 0;
  #missDay = "";
  /** Today's miss texts, each with its id: hashed once a day, however often it is asked. */
  #missesToday = new Map<string, string>();
  /** The day last asked for, and when it began: most notes fall in the same day. */
  #day = { name: "", start: 0 };
  /** Bucket names by day and group, and field names by skill: made once, not per note. */
  #names = new Map<string, { skills: string; lastUsed: string; misses: string; lastMissed: string }>();
  #fields = new WeakMap<SkillKey, { key: string; counters: Map<UsageCounter, string> }>();

  constructor(private readonly limits: TallyLimits) {}

  #dayOf(at: number): string {
    if (at < this.#day.start || at >= this.#day.start + DAY_MS) {
      this.#day = { name: dayOf(at), start: at - (at % DAY_MS) };
      this.#names = new Map();
    }
    return this.#day.name;
  }

  #bucketsOf(day: string, group: string) {
    const key = `${day}\0${group}`;
    let names = this.#names.get(key);
    if (!names) {
      names = {
        skills: BUCKETS.skills(day, group),
        lastUsed: BUCKETS.lastUsed(day, group),
        misses: BUCKETS.misses(day, group),
        lastMissed: BUCKETS.lastMissed(day, group),
      };
      this.#names.set(key, names);
    }
    return names;
  }

  #fieldsOf(skill: SkillKey) {
    let fields = this.#fields.get(skill);
    if (!fields) this.#fields.set(skill, (fields = { key: skillKey(skill), counters: new Map() }));
    return fields;
  }

  #field(skill: SkillKey, counter: UsageCounter): string {
    const { counters } = this.#fieldsOf(skill);
    let field = counters.get(counter);
    if (field === undefined) counters.set(counter, (field = skillField(skill, counter)));
    return field;
  }

  /** Figures dropped at the bounds since this tally began. */
  get dropped(): number {
    return this.#dropped;
  }

  get empty(): boolean {
    return this.#held === 0;
  }

  /** One use of `skill`: each of `counters` once, for every caller and for each of `groups`. */
  count(skill: SkillKey, counters: readonly UsageCounter[], groups: readonly string[], at: number): void {
    const day = this.#dayOf(at);
    const key = this.#fieldsOf(skill).key;
    for (const caller of [ALL_CALLERS, ...groups]) {
      const names = this.#bucketsOf(day, caller);
      for (const counter of counters) this.#add(this.#counters, names.skills, day, this.#field(skill, counter));
      this.#raise(names.lastUsed, day, key, at);
    }
  }

  /** One search that missed, by its normalised text, from `caller` (a hash, never a name). */
  miss(query: string, caller: string, groups: readonly string[], at: number): void {
    const day = this.#dayOf(at);
    if (day !== this.#missDay) {
      this.#missDay = day;
      this.#missesToday = new Map();
    }
    let id = this.#missesToday.get(query);
    if (id === undefined) {
      if (this.#missesToday.size >= this.limits.maxMissesPerDay) {
        this.#dropped++;
        return;
      }
      this.#missesToday.set(query, (id = queryId(query)));
    }
    for (const group of [ALL_CALLERS, ...groups]) {
      const names = this.#bucketsOf(day, group);
      this.#add(this.#counters, names.misses, day, query);
      this.#raise(names.lastMissed, day, query, at);
      const bucket = BUCKETS.missCallers(day, group, id);
      const held = this.#distinct.get(bucket);
      if (held?.fields.has(caller)) continue;
      if (!this.#room()) continue;
      if (held) held.fields.add(caller);
      else this.#distinct.set(bucket, { day, fields: new Set([caller]) });
      this.#held++;
    }
  }

  /** Everything counted so far, leaving the tally empty. */
  take(): PendingUsage {
    const taken = { counters: this.#counters, latest: this.#latest, distinct: this.#distinct };
    this.#counters = new Map();
    this.#latest = new Map();
    this.#distinct = new Map();
    this.#held = 0;
    return taken;
  }

  #room(): boolean {
    if (this.#held < this.limits.maxPendingFields) return true;
    this.#dropped++;
    return false;
  }

  #add(buckets: Map<string, Pending<Map<string, number>>>, bucket: string, day: string, field: string): void {
    const fields = this.#pendingOf(buckets, bucket, day, field);
    if (fields) fields.set(field, (fields.get(field) ?? 0) + 1);
  }

  #raise(bucket: string, day: string, field: string, at: number): void {
    const fields = this.#pendingOf(this.#latest, bucket, day, field);
    if (fields && (fields.get(field) ?? 0) < at) fields.set(field, at);
  }

  /** The bucket's pending fields, when `field` is held already or there is room for it. */
  #pendingOf(
    buckets: Map<string, Pending<Map<string, number>>>,
    bucket: string,
    day: string,
    field: string,
  ): Map<string, number> | undefined {
    let pending = buckets.get(bucket);
    if (pending?.fields.has(field)) return pending.fields;
    if (!this.#room()) return undefined;
    if (!pending) buckets.set(bucket, (pending = { day, fields: new Map() }));
    this.#held++;
    return pending.fields;
  }
}

/** Writes `pending` into `store`, every bucket at once; rejects when any write failed (those figures are lost). */
export async function writePending(store: UsageStore, pending: PendingUsage, retentionDays: number): Promise<void> {
  const writes: Promise<void>[] = [];
  for (const [bucket, { day, fields }] of pending.counters)
    writes.push(store.increment(bucket, fields, expiryOf(day, retentionDays)));
  for (const [bucket, { day, fields }] of pending.latest)
    writes.push(store.keepLatest(bucket, fields, expiryOf(day, retentionDays)));
  for (const [bucket, { day, fields }] of pending.distinct)
    writes.push(store.addDistinct(bucket, [...fields], expiryOf(day, retentionDays)));
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}
