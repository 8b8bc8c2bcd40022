/** What the backend says about its own connection; the engine adds "degraded" on top. */
export type BackendConnection = "connected" | "reconnecting";

export interface BackendEvents {
  /** The backend is reachable again (a Redis client's "ready"). */
  ready(): void;
  /** The backend failed outside any operation (a lost connection, a failed reconnect). */
  failed(error: unknown): void;
}

/** The stored keys under a prefix, as far as a bounded listing got. */
export interface KeyListing {
  readonly keys: readonly string[];
  /** False when the listing stopped at its limit. */
  readonly complete: boolean;
}

/** A store Keyv can use: serialized strings in and out, with a TTL in milliseconds. */
export interface StringStore {
  get(key: string): Promise<string | undefined> | string | undefined;
  set(key: string, value: string, ttl?: number): unknown;
  delete(key: string): Promise<boolean> | boolean;
  clear(): Promise<void> | void;
}

/** One storage behind the cache engine: the store Keyv runs over, and what Keyv cannot tell. */
export interface CacheBackend {
  /** "memory" or "redis". */
  readonly kind: string;
  /** Whether entries outlive this process. */
  readonly persistent: boolean;
  /** Where entries live, for the stats; never a password. */
  readonly target: string;
  readonly store: StringStore;
  connection(): BackendConnection;
  /** Be told when the connection comes and goes; a backend that cannot lose it never calls. */
  subscribe(events: BackendEvents): void;
  /** The keys stored under `prefix`, at most `limit`. */
  listKeys(prefix: string, limit: number): Promise<KeyListing>;
  close(): Promise<void>;
}
