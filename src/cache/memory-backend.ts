import { LRUCache } from "lru-cache";
import type { CacheBackend, KeyListing } from "./backend.js";

export interface MemoryBackendOptions {
  /** The most the entries may add up to, in characters of their serialized form (~bytes for ASCII). */
  readonly maxBytes: number;
  readonly maxEntries: number;
}

/**
 * A Keyv store over a size-bounded LRU: the least recently used entries go first once either
 * bound is reached, so a long-lived server never grows without limit. It holds serialized
 * strings, so an entry's size is its length, and a caller can never change a cached value by
 * mutating what it got back.
 */
class LruStore {
  /** Keyv assigns its namespace here; keys arrive complete, so it is unused. */
  namespace: string | undefined;
  readonly lru: LRUCache<string, string>;
  readonly #maxEntries: number;

  constructor(options: MemoryBackendOptions) {
    // The entry bound is kept here, not given to the LRU as `max`: with `max`, lru-cache allocates
    // its lists for that many entries up front, even while the cache is empty.
    this.#maxEntries = options.maxEntries;
    this.lru = new LRUCache<string, string>({
      maxSize: options.maxBytes,
      sizeCalculation: (value, key) => value.length + key.length,
    });
  }

  get(key: string): string | undefined {
    return this.lru.get(key);
  }

  set(key: string, value: string, ttl?: number): boolean {
    this.lru.set(key, value, ttl ? { ttl } : undefined);
    // The entry just set is the most recently used: pop() takes the least.
    while (this.lru.size > this.#maxEntries) this.lru.pop();
    return true;
  }

  delete(key: string): boolean {
    return this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }
}

export function createMemoryBackend(options: MemoryBackendOptions): CacheBackend {
  const store = new LruStore(options);
  return {
    kind: "memory",
    persistent: false,
    target: `this process, up to ${options.maxEntries} entries and ${options.maxBytes} bytes`,
    store,
    connection: () => "connected",
    subscribe() {},
    async listKeys(prefix: string, limit: number): Promise<KeyListing> {
      store.lru.purgeStale();
      const keys: string[] = [];
      for (const key of store.lru.keys()) {
        if (!key.startsWith(prefix)) continue;
        if (keys.length === limit) return { keys, complete: false };
        keys.push(key);
      }
      return { keys, complete: true };
    },
    async close() {
      store.lru.clear();
    },
  };
}
