import type { UsageStore } from "../../../skills/usage/store.js";

type Kind = "counters" | "latest" | "distinct";

interface Bucket {
  readonly kind: Kind;
  expiresAt: number;
  /** Counters and latest times by field; a distinct set's members map to 1. */
  readonly fields: Map<string, number>;
}

/** The saved form: `[name, kind, expiresAt, [field, value][]]` per bucket. */
export type SavedBuckets = readonly (readonly [string, Kind, number, readonly (readonly [string, number])[]])[];

const KINDS: ReadonlySet<string> = new Set(["counters", "latest", "distinct"]);

/**
 * Usage buckets in this process: maps, bounded by `maxEntries` fields over every bucket (past it a
 * new field is dropped; those held still count), each bucket gone at its expiry.
 */
export class MemoryUsageStore implements UsageStore {
  readonly #buckets = new Map<string, Bucket>();
  #entries = 0;
  #dropped = 0;

  constructor(
    readonly target: string,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  /** Fields dropped at the bound. */
  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#entries;
  }

  async increment(bucket: string, amounts: ReadonlyMap<string, number>, expiresAt: number): Promise<void> {
    this.#apply(bucket, "counters", expiresAt, amounts, (held, given) => held + given);
  }

  async keepLatest(bucket: string, times: ReadonlyMap<string, number>, expiresAt: number): Promise<void> {
    this.#apply(bucket, "latest", expiresAt, times, Math.max);
  }

  async addDistinct(bucket: string, members: readonly string[], expiresAt: number): Promise<void> {
    this.#apply(bucket, "distinct", expiresAt, new Map(members.map((member) => [member, 1])), () => 1);
  }

  async counters(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return buckets.map((name) => this.#live(name, "counters")?.fields ?? new Map());
  }

  async latest(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return buckets.map((name) => this.#live(name, "latest")?.fields ?? new Map());
  }

  async countDistinct(buckets: readonly string[]): Promise<number> {
    const members = new Set<string>();
    for (const name of buckets)
      for (const member of this.#live(name, "distinct")?.fields.keys() ?? []) members.add(member);
    return members.size;
  }

  /** Add everything `other` holds, as writes of its buckets would. */
  mergeFrom(other: MemoryUsageStore): void {
    for (const [name, bucket] of other.#buckets) {
      const combine = bucket.kind === "counters" ? (a: number, b: number) => a + b : Math.max;
      this.#apply(name, bucket.kind, bucket.expiresAt, bucket.fields, combine);
    }
  }

  /** What is held now, for a file. */
  save(): SavedBuckets {
    this.#prune();
    return [...this.#buckets].map(
      ([name, { kind, expiresAt, fields }]) => [name, kind, expiresAt, [...fields]] as const,
    );
  }

  /** Loads a saved form read back from a file, skipping whatever does not have its shape. */
  load(saved: unknown): void {
    if (!Array.isArray(saved)) return;
    for (const entry of saved) {
      if (!Array.isArray(entry) || entry.length !== 4) continue;
      const [name, kind, expiresAt, fields] = entry as unknown[];
      if (typeof name !== "string" || typeof kind !== "string" || !KINDS.has(kind)) continue;
      if (typeof expiresAt !== "number" || !Array.isArray(fields)) continue;
      const valid = fields.filter(
        (field): field is [string, number] =>
          Array.isArray(field) && typeof field[0] === "string" && Number.isSafeInteger(field[1]) && field[1] >= 0,
      );
      const combine = kind === "counters" ? (a: number, b: number) => a + b : Math.max;
      this.#apply(name, kind as Kind, expiresAt, new Map(valid), combine);
    }
  }

  #live(name: string, kind: Kind): Bucket | undefined {
    const bucket = this.#buckets.get(name);
    if (!bucket || bucket.kind !== kind) return undefined;
    if (bucket.expiresAt > this.now()) return bucket;
    this.#drop(name, bucket);
    return undefined;
  }

  #apply(
    name: string,
    kind: Kind,
    expiresAt: number,
    given: ReadonlyMap<string, number>,
    combine: (held: number, given: number) => number,
  ): void {
    if (expiresAt <= this.now()) return;
    let bucket = this.#buckets.get(name);
    if (bucket && bucket.kind !== kind) return;
    if (!bucket) this.#buckets.set(name, (bucket = { kind, expiresAt, fields: new Map() }));
    bucket.expiresAt = Math.max(bucket.expiresAt, expiresAt);
    for (const [field, value] of given) {
      const held = bucket.fields.get(field);
      if (held !== undefined) {
        bucket.fields.set(field, combine(held, value));
        continue;
      }
      if (this.#entries >= this.maxEntries) this.#prune();
      if (this.#entries >= this.maxEntries) {
        this.#dropped++;
        continue;
      }
      bucket.fields.set(field, value);
      this.#entries++;
    }
  }

  #prune(): void {
    const now = this.now();
    for (const [name, bucket] of this.#buckets) if (bucket.expiresAt <= now) this.#drop(name, bucket);
  }

  #drop(name: string, bucket: Bucket): void {
    this.#buckets.delete(name);
    this.#entries -= bucket.fields.size;
  }
}
