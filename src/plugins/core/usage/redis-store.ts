import type { RedisCommands } from "../../../internal-tokens.js";
import type { UsageStore } from "../../../skills/usage/store.js";

/**
 * Usage buckets in the Redis the cache uses, under its prefix: counters in hashes (HINCRBY),
 * latest times in sorted sets (ZADD GT keeps the greater), distinct callers in HyperLogLogs
 * (PFADD; PFCOUNT of several days counts their union, within 1 %, in 12 KiB at most each). Every
 * command is atomic on its own, so replicas count into the same figures; each key expires with
 * its bucket (PEXPIREAT). Needs Redis 6.2 or newer (ZADD GT).
 */
export class RedisUsageStore implements UsageStore {
  constructor(private readonly redis: RedisCommands) {}

  get target(): string {
    return this.redis.target;
  }

  #key(bucket: string): string {
    return `${this.redis.prefix}:usage:${bucket}`;
  }

  async increment(bucket: string, amounts: ReadonlyMap<string, number>, expiresAt: number): Promise<void> {
    const key = this.#key(bucket);
    await Promise.all([
      ...[...amounts].map(([field, by]) => this.redis.send(["HINCRBY", key, field, String(by)])),
      this.#expire(key, expiresAt),
    ]);
  }

  async keepLatest(bucket: string, times: ReadonlyMap<string, number>, expiresAt: number): Promise<void> {
    if (times.size === 0) return;
    const key = this.#key(bucket);
    const pairs = [...times].flatMap(([field, at]) => [String(at), field]);
    await Promise.all([this.redis.send(["ZADD", key, "GT", ...pairs]), this.#expire(key, expiresAt)]);
  }

  async addDistinct(bucket: string, members: readonly string[], expiresAt: number): Promise<void> {
    if (members.length === 0) return;
    const key = this.#key(bucket);
    await Promise.all([this.redis.send(["PFADD", key, ...members]), this.#expire(key, expiresAt)]);
  }

  counters(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return Promise.all(buckets.map(async (bucket) => pairsOf(await this.redis.send(["HGETALL", this.#key(bucket)]))));
  }

  latest(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return Promise.all(
      buckets.map(async (bucket) =>
        pairsOf(await this.redis.send(["ZRANGE", this.#key(bucket), "0", "-1", "WITHSCORES"])),
      ),
    );
  }

  async countDistinct(buckets: readonly string[]): Promise<number> {
    if (buckets.length === 0) return 0;
    const answer = await this.redis.send(["PFCOUNT", ...buckets.map((bucket) => this.#key(bucket))]);
    return typeof answer === "number" ? answer : Number(answer);
  }

  #expire(key: string, expiresAt: number): Promise<unknown> {
    return this.redis.send(["PEXPIREAT", key, String(Math.ceil(expiresAt))]);
  }
}

/** A reply of field-value pairs (a flat list in RESP2, a map in RESP3) as numbers; anything else is empty. */
function pairsOf(reply: unknown): Map<string, number> {
  const pairs = new Map<string, number>();
  if (Array.isArray(reply)) {
    for (let at = 0; at + 1 < reply.length; at += 2) add(pairs, reply[at], reply[at + 1]);
  } else if (reply instanceof Map) {
    for (const [field, value] of reply) add(pairs, field, value);
  } else if (typeof reply === "object" && reply !== null) {
    for (const [field, value] of Object.entries(reply)) add(pairs, field, value);
  }
  return pairs;
}

function add(pairs: Map<string, number>, field: unknown, value: unknown): void {
  const number = typeof value === "number" ? value : Number(String(value));
  if (typeof field === "string" || Buffer.isBuffer(field)) {
    if (Number.isFinite(number)) pairs.set(String(field), number);
  }
}
