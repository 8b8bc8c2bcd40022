import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Keyv, type KeyvStoreAdapter } from "keyv";
import type { Cache, CacheState, CacheStats, JsonValue } from "../kernel/cache.js";
import { errorMessage } from "../kernel/errors.js";
import type { Logger } from "../kernel/logger.js";
import type { CacheBackend } from "./backend.js";
import { CircuitBreaker } from "./breaker.js";
import { Deadlines, TIMED_OUT } from "./deadlines.js";
import { fullKey, keyPrefix, namespaceOf } from "./keys.js";

export interface CacheEngineOptions {
  readonly backend: CacheBackend;
  readonly logger: Logger;
  /** Starts every key, so deployments sharing one Redis can keep apart. */
  readonly prefix: string;
  /** TTL of a `set` that names none. */
  readonly defaultTtlMs: number;
  /** The longest any one operation may take before it counts as failed. */
  readonly operationTimeoutMs: number;
  /** Failures in a row that put the cache into "degraded". */
  readonly failureThreshold: number;
  /** How long "degraded" lasts before one operation tries the backend again. */
  readonly retryAfterMs: number;
  /** A serialized entry larger than this is not stored. */
  readonly maxEntryBytes: number;
  /**
   * When set, every entry is sealed with an HMAC of its key and content under this secret, and an
   * entry read back that does not carry a valid one is a miss: a cache others can write (Redis)
   * cannot make the server serve what it never stored.
   */
  readonly secret?: string;
}

/** Listing keys for the stats stops here: counting is for a glance, not an inventory. */
const MAX_LISTED_KEYS = 200_000;
/** The stats wait this long for the count; a slow backend answers without one. */
const LISTING_TIMEOUT_MS = 2_000;
/** How long close waits for queued writes: under the kernel's 5 s for a stop hook. */
const CLOSE_FLUSH_MS = 3_000;
/** The most reads sent in one batch. */
const READ_BATCH = 256;
/** Writes sent at once; the rest wait their turn. */
const WRITES_IN_FLIGHT = 64;
/** Past this many waiting writes, new ones are dropped: a cache may forget, never hoard. */
const MAX_QUEUED_WRITES = 50_000;

/** A problem with one entry (too large, unreadable), not with the backend: it never trips the breaker. */
class EntryError extends Error {}

/**
 * The cache service behind TOKENS.Cache: Keyv over one backend, with what makes a cache safe to
 * depend on. Every operation has a deadline; failures in a row open a circuit breaker, and while
 * it is open operations do not touch the backend at all (a get is a miss, a set is dropped), so a
 * dead or hanging Redis costs requests nothing. Every method resolves, whatever happens.
 */
export class CacheEngine {
  readonly #readyListeners = new Set<() => void>();
  readonly #options: CacheEngineOptions;
  readonly #keyv: Keyv;
  readonly #breaker: CircuitBreaker;
  readonly #started = Date.now();
  readonly #deadlines = new Deadlines();
  /** Writes not yet sent, and how many are in flight. */
  readonly #writes: (() => Promise<void>)[] = [];
  #writing = 0;
  readonly #drained: (() => void)[] = [];
  /** Reads gathered in this tick, sent together. */
  #reads: { keys: string[]; answers: ((value: JsonValue | undefined) => void)[] } | undefined;
  #counts = { hits: 0, misses: 0, errors: 0, bypassed: 0 };
  #lastError: { message: string; at: string } | null = null;
  /** An outage has been reported: one warning per outage, however long it lasts. */
  #warned = false;
  /** A refused seal has been reported: once per process, the rest at debug. */
  #warnedSeal = false;
  #closed = false;

  constructor(options: CacheEngineOptions) {
    this.#options = options;
    const { maxEntryBytes } = options;
    // Keyv takes any store with get, set, delete and clear (its own runtime check); its adapter
    // type also lists the event and option members its packaged adapters carry.
    this.#keyv = new Keyv(options.backend.store as unknown as KeyvStoreAdapter, {
      namespace: undefined,
      useKeyPrefix: false,
      throwOnErrors: true,
      serialize: (data) => {
        const text = JSON.stringify(data);
        if (text.length > maxEntryBytes)
          throw new EntryError(`an entry of ${text.length} bytes is over the ${maxEntryBytes}-byte limit`);
        return options.secret === undefined ? text : `${seal(options.secret, text)}.${text}`;
      },
      // An unreadable entry is a miss for its key alone, not a failed batch.
      deserialize: (stored) => {
        const text = options.secret === undefined ? stored : this.#unsealed(options.secret, stored);
        if (text === undefined) return undefined;
        try {
          return JSON.parse(text);
        } catch {
          this.#noteError(new EntryError("a stored entry is not JSON"));
          return undefined;
        }
      },
    });
    // Failures reach the engine as rejections; Keyv's error events repeat them.
    this.#keyv.on("error", () => {});
    this.#breaker = new CircuitBreaker(options.failureThreshold, options.retryAfterMs, (open) => {
      if (open)
        this.reportOutage(
          `the ${options.backend.kind} cache is degraded after ${options.failureThreshold} failures in a row (${this.#lastError?.message ?? "?"}); requests go to the sources until it is back`,
        );
      else this.#recovered();
    });
    options.backend.subscribe({
      ready: () => {
        this.#breaker.reset();
        for (const listener of this.#readyListeners) listener();
      },
      failed: (error) => {
        this.#noteError(error);
        this.#breaker.failed();
      },
    });
  }

  get persistent(): boolean {
    return this.#options.backend.persistent;
  }

  /** See CacheMonitor.onReady. */
  onReady(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  /** The counters alone, without a round trip to the backend: for a metrics scrape. */
  counts(): Readonly<{ hits: number; misses: number; errors: number; bypassed: number }> {
    return { ...this.#counts };
  }

  get state(): CacheState {
    if (this.#breaker.open) return "degraded";
    return this.#options.backend.connection();
  }

  /** The last error's message, for a warning that wants to say why. */
  get lastErrorMessage(): string | undefined {
    return this.#lastError?.message;
  }

  /** Log an outage once; the next one is logged again after the backend has come back. */
  reportOutage(message: string): void {
    if (this.#warned) {
      this.#options.logger.debug(message);
      return;
    }
    this.#warned = true;
    this.#options.logger.warn(message);
  }

  #recovered(): void {
    if (this.#warned)
      this.#options.logger.info(`the ${this.#options.backend.kind} cache is back: ${this.#options.backend.target}`);
    this.#warned = false;
  }

  /** A view of the cache under `namespace` (a plugin's name). */
  view(namespace: string): Cache {
    if (namespace === "") throw new Error("a cache namespace cannot be empty");
    return {
      namespace,
      get: <T extends JsonValue = JsonValue>(key: string) => this.#get(namespace, key) as Promise<T | undefined>,
      set: (key, value, ttlMs) => this.#set(namespace, key, value, ttlMs),
      delete: (key) => this.#delete(namespace, key),
      scope: (name) => this.view(`${namespace}/${name}`),
    };
  }

  /**
   * Reads made in the same tick go to the backend together (one MGET for Redis): a load that
   * asks for thousands of entries pays one round trip per batch instead of per key.
   */
  #get(namespace: string, key: string): Promise<JsonValue | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      if (!this.#reads) {
        this.#reads = { keys: [], answers: [] };
        queueMicrotask(() => void this.#flushReads());
      }
      this.#reads.keys.push(fullKey(this.#options.prefix, namespace, key));
      this.#reads.answers.push(resolve);
      if (this.#reads.keys.length >= READ_BATCH) void this.#flushReads();
    });
  }

  async #flushReads(): Promise<void> {
    const batch = this.#reads;
    this.#reads = undefined;
    if (!batch) return;
    const outcome = await this.#run(() => this.#keyv.getMany<JsonValue>(batch.keys));
    batch.answers.forEach((answer, index) => {
      const value = outcome.ok ? this.#opened(batch.keys[index]!, outcome.value[index]) : undefined;
      if (outcome.ok) {
        if (value === undefined) this.#counts.misses++;
        else this.#counts.hits++;
      }
      answer(value);
    });
  }

  #set(namespace: string, key: string, value: JsonValue, ttlMs?: number): Promise<void> {
    const ttl = ttlMs === undefined ? this.#options.defaultTtlMs : ttlMs;
    if (!Number.isFinite(ttl) || ttl <= 0) {
      this.#noteError(new Error(`a ttl of ${ttlMs} ms for ${namespace}:${key} is not a positive number; not stored`));
      return Promise.resolve();
    }
    const full = fullKey(this.#options.prefix, namespace, key);
    // Sealed, an entry names its own key, so a sealed entry copied under another key is refused.
    const stored = this.#options.secret === undefined ? value : [full, value];
    return this.#enqueue(() => this.#keyv.set(full, stored, Math.ceil(ttl)));
  }

  #delete(namespace: string, key: string): Promise<void> {
    return this.#enqueue(() => this.#keyv.delete(fullKey(this.#options.prefix, namespace, key)));
  }

  /**
   * Writes wait in a queue with a few in flight at a time, so a burst (thousands of entries
   * stored after a load) never floods the backend, and reads never wait behind it. Resolves once
   * the write has landed, failed or been dropped.
   */
  #enqueue(write: () => Promise<unknown>): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#writes.length >= MAX_QUEUED_WRITES) {
      this.#noteError(new EntryError(`more than ${MAX_QUEUED_WRITES} writes are waiting; this one was dropped`));
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#writes.push(async () => {
        await this.#run(write);
        resolve();
      });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#writing < WRITES_IN_FLIGHT && this.#writes.length > 0) {
      const write = this.#writes.shift()!;
      this.#writing++;
      void write().finally(() => {
        this.#writing--;
        this.#pump();
        if (this.#writing === 0 && this.#writes.length === 0) for (const done of this.#drained.splice(0)) done();
      });
    }
  }

  /** One backend operation: skipped while degraded, bounded by the deadline, never rejecting. */
  async #run<T>(
    operation: () => Promise<T>,
    timeoutMs = this.#options.operationTimeoutMs,
  ): Promise<{ ok: true; value: T } | { ok: false }> {
    if (!this.#breaker.allows()) {
      this.#counts.bypassed++;
      return { ok: false };
    }
    try {
      const value = await this.#deadlines.race(operation(), timeoutMs);
      if (value === TIMED_OUT)
        throw new Error(`no answer from the ${this.#options.backend.kind} cache within ${timeoutMs} ms`);
      this.#breaker.succeeded();
      return { ok: true, value };
    } catch (error) {
      this.#noteError(error);
      if (!(error instanceof EntryError)) this.#breaker.failed();
      return { ok: false };
    }
  }

  /** The text of a sealed entry whose seal holds; undefined (and noted) for any other. */
  #unsealed(secret: string, stored: string): string | undefined {
    const dot = stored.indexOf(".");
    const text = stored.slice(dot + 1);
    const given = Buffer.from(dot < 0 ? "" : stored.slice(0, dot));
    const expected = Buffer.from(seal(secret, text));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return text;
    this.#refused();
    return undefined;
  }

  /** What a read of `key` answers: a sealed entry's value when it names that key. */
  #opened(key: string, value: JsonValue | undefined): JsonValue | undefined {
    if (this.#options.secret === undefined || value === undefined) return value;
    if (Array.isArray(value) && value.length === 2 && value[0] === key) return value[1];
    this.#refused();
    return undefined;
  }

  #refused(): void {
    this.#noteError(
      new EntryError(
        "a cache entry without this server's seal was refused (written by another secret, or changed in the cache)",
      ),
    );
    if (!this.#warnedSeal)
      this.#options.logger.warn(
        `${this.#lastError!.message}; it is read as a miss and written again (docs/caching.md#sealed-entries)`,
      );
    this.#warnedSeal = true;
  }

  #noteError(error: unknown): void {
    this.#counts.errors++;
    this.#lastError = { message: describe(error), at: new Date().toISOString() };
    this.#options.logger.debug(`cache: ${this.#lastError.message}`);
  }

  async stats(): Promise<CacheStats> {
    const { backend, prefix } = this.#options;
    const { hits, misses, errors, bypassed } = this.#counts;
    let entries: Record<string, number> | null = null;
    let entriesComplete = false;
    // While degraded, the count is not worth a probe of the backend.
    const listing = this.#breaker.open
      ? { ok: false as const }
      : await this.#run(() => backend.listKeys(keyPrefix(prefix), MAX_LISTED_KEYS), LISTING_TIMEOUT_MS);
    if (listing.ok) {
      entries = {};
      for (const key of listing.value.keys) {
        const namespace = namespaceOf(prefix, key);
        if (namespace !== undefined) entries[namespace] = (entries[namespace] ?? 0) + 1;
      }
      entriesComplete = listing.value.complete;
    }
    return {
      backend: backend.kind,
      target: backend.target,
      state: this.state,
      hits,
      misses,
      hitRatio: hits + misses === 0 ? null : hits / (hits + misses),
      errors,
      bypassed,
      entries,
      entriesComplete,
      lastError: this.#lastError,
      uptimeMs: Date.now() - this.#started,
    };
  }

  /**
   * Let queued writes land (for a bounded time: a one-shot command's entries are what the next
   * start reads), then release the backend. Later operations do nothing.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#writing > 0 || this.#writes.length > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const drained = new Promise<void>((resolve) => this.#drained.push(resolve));
      await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_FLUSH_MS)))]);
      clearTimeout(timer);
    }
    this.#writes.length = 0;
    this.#deadlines.stop();
    await this.#options.backend.close();
  }
}

/** The HMAC-SHA256 of a serialized entry under `secret`, in base64url. */
function seal(secret: string, text: string): string {
  return createHmac("sha256", secret).update(text).digest("base64url");
}

/** One line for an error: node-redis errors carry their cause in `code` (ECONNREFUSED). */
function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = errorMessage(error) || (typeof code === "string" ? code : "unknown error");
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}
