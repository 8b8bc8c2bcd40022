/**
 * A map that holds at most `capacity` entries and forgets the least recently used first. A Map
 * iterates in insertion order, so re-inserting on each use keeps the oldest entry first.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`an LRU cache holds at least one entry, not ${capacity}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** The value, without marking it used (for scans over many entries). */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }
}
