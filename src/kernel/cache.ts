/** What a cache stores: plain JSON, so every backend (memory, Redis) holds the same thing. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A key-value cache shared by plugins, under TOKENS.Cache. Each plugin that resolves it gets a
 * view scoped to its own namespace (its name), so two plugins never collide; `scope` narrows it
 * further. A cache is an optimisation: every method resolves even when the backend is down
 * (a miss, a write dropped), so a caller never needs a fallback path of its own.
 */
export interface Cache {
  /** The namespace this view reads and writes, e.g. "fs" or "fs/index". */
  readonly namespace: string;
  /** The value stored under `key`, or undefined (missing, expired, unreadable, or the backend is down). */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined>;
  /** Store `value` under `key`, for `ttlMs` milliseconds (default: the backend's). */
  set(key: string, value: JsonValue, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** A view under a sub-namespace of this one. */
  scope(name: string): Cache;
}
