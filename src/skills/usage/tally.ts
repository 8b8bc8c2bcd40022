import { createHash } from "node:crypto";
import { ALL_CALLERS, BUCKETS, dayOf, expiryOf, skillField, skillKey, type SkillKey } from "./buckets.js";
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
  #fields = 0;
  #dropped = 0;
  #missDay = "";
  #missesToday = new Set<string>();

  constructor(private readonly limits: TallyLimits) {}

  /** Figures dropped at the bounds since this tally began. */
  get dropped(): number {
    return this.#dropped;
  }

  get empty(): boolean {
    return this.#fields === 0;
  }

  /** One use of `skill`: each of `counters` once, for every caller and for each of `groups`. */
  count(skill: SkillKey, counters: readonly UsageCounter[], groups: readonly string[], at: number): void {
    const day = dayOf(at);
    for (const caller of [ALL_CALLERS, ...groups]) {
      for (const counter of counters)
        this.#add(this.#counters, BUCKETS.skills(day, caller), day, skillField(skill, counter));
      this.#raise(BUCKETS.lastUsed(day, caller), day, skillKey(skill), at);
    }
  }

  /** One search that missed, by its normalised text, from `caller` (a hash, never a name). */
  miss(query: string, caller: string, groups: readonly string[], at: number): void {
    const day = dayOf(at);
    if (day !== this.#missDay) {
      this.#missDay = day;
      this.#missesToday = new Set();
    }
    if (!this.#missesToday.has(query)) {
      if (this.#missesToday.size >= this.limits.maxMissesPerDay) {
        this.#dropped++;
        return;
      }
      this.#missesToday.add(query);
    }
    const id = queryId(query);
    for (const group of [ALL_CALLERS, ...groups]) {
      this.#add(this.#counters, BUCKETS.misses(day, group), day, query);
      this.#raise(BUCKETS.lastMissed(day, group), day, query, at);
      const bucket = BUCKETS.missCallers(day, group, id);
      const held = this.#distinct.get(bucket);
      if (held?.fields.has(caller)) continue;
      if (!this.#room()) continue;
      if (held) held.fields.add(caller);
      else this.#distinct.set(bucket, { day, fields: new Set([caller]) });
      this.#fields++;
    }
  }

  /** Everything counted so far, leaving the tally empty. */
  take(): PendingUsage {
    const taken = { counters: this.#counters, latest: this.#latest, distinct: this.#distinct };
    this.#counters = new Map();
    this.#latest = new Map();
    this.#distinct = new Map();
    this.#fields = 0;
    return taken;
  }

  #room(): boolean {
    if (this.#fields < this.limits.maxPendingFields) return true;
    this.#dropped++;
    return false;
  }

  #add(buckets: Map<string, Pending<Map<string, number>>>, bucket: string, day: string, field: string): void {
    const fields = this.#fieldsOf(buckets, bucket, day, field);
    if (fields) fields.set(field, (fields.get(field) ?? 0) + 1);
  }

  #raise(bucket: string, day: string, field: string, at: number): void {
    const fields = this.#fieldsOf(this.#latest, bucket, day, field);
    if (fields && (fields.get(field) ?? 0) < at) fields.set(field, at);
  }

  /** The bucket's pending fields, when `field` is held already or there is room for it. */
  #fieldsOf(
    buckets: Map<string, Pending<Map<string, number>>>,
    bucket: string,
    day: string,
    field: string,
  ): Map<string, number> | undefined {
    let pending = buckets.get(bucket);
    if (pending?.fields.has(field)) return pending.fields;
    if (!this.#room()) return undefined;
    if (!pending) buckets.set(bucket, (pending = { day, fields: new Map() }));
    this.#fields++;
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
