/**
 * Where usage figures are kept: named buckets of numbers, each bucket dropped whole at its expiry.
 * Three kinds of bucket, each with one atomic write, so that replicas writing into one store count
 * into the same figures: counters (added to), latest times (the greatest kept) and distinct sets
 * (their size counted, never their members listed). The usage plugin decides every bucket's name
 * and expiry; an engine only keeps them. Built in: in process (kept in the cache folder) and
 * Redis; a plugin that provides `TOKENS.UsageStore` brings another engine.
 *
 * A store is never in an answer's way: its writes are batched and made in the background, and a
 * write that fails (the engine is down) loses those figures, never a request.
 */
export interface UsageStore {
  /** Where the figures live, for messages: `redis 127.0.0.1:6379`, a file's path. Never a password. */
  readonly target: string;
  /** Add each field's amount to the bucket's counter of that name. */
  increment(bucket: string, amounts: ReadonlyMap<string, number>, expiresAt: number): Promise<void>;
  /** Keep, for each field, the greater of the stored time and the one given (ms since the epoch). */
  keepLatest(bucket: string, times: ReadonlyMap<string, number>, expiresAt: number): Promise<void>;
  /** Add members to the bucket's distinct set. */
  addDistinct(bucket: string, members: readonly string[], expiresAt: number): Promise<void>;
  /** Each counter bucket's fields, in the order named; an unknown or expired bucket is empty. */
  counters(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]>;
  /** Each latest-time bucket's fields, in the order named. */
  latest(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]>;
  /** How many distinct members the buckets hold together (their union). */
  countDistinct(buckets: readonly string[]): Promise<number>;
  /** Save what is kept, release connections: at shutdown. */
  close?(): Promise<void>;
}
