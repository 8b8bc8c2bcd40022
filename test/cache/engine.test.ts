import { describe, expect, it, vi } from "vitest";
import type { CacheEngineOptions } from "../../src/cache/engine.js";
import { createMemoryBackend } from "../../src/cache/memory-backend.js";
import { engineOver } from "./engine-over.js";

function memoryEngine(
  overrides: Partial<CacheEngineOptions> = {},
  bounds = { maxBytes: 1_000_000, maxEntries: 1_000 },
) {
  return engineOver(createMemoryBackend(bounds), overrides);
}

describe("the cache engine over memory", () => {
  it("keeps JSON values per namespace, and a scope never sees its parent's keys", async () => {
    const { engine } = memoryEngine();
    const fs = engine.view("fs");
    const other = engine.view("other");
    await fs.set("k", { list: [1, "two", null, true], nested: { a: 1 } });
    await other.set("k", "theirs");
    await fs.scope("index").set("k", 42);
    expect(await fs.get("k")).toEqual({ list: [1, "two", null, true], nested: { a: 1 } });
    expect(await other.get("k")).toBe("theirs");
    expect(await fs.scope("index").get("k")).toBe(42);
    expect(fs.scope("index").namespace).toBe("fs/index");
    await fs.delete("k");
    expect(await fs.get("k")).toBeUndefined();
    expect(await other.get("k")).toBe("theirs");
  });

  it("hands out copies: changing a value got back changes nothing stored", async () => {
    const { engine } = memoryEngine();
    const cache = engine.view("p");
    await cache.set("k", { n: 1 });
    const got = (await cache.get<{ n: number }>("k"))!;
    (got as { n: number }).n = 2;
    expect(await cache.get("k")).toEqual({ n: 1 });
  });

  it("forgets an entry once its TTL has passed", async () => {
    // Keyv stamps and checks expiry with Date.now: move the date on instead of waiting for it.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { engine } = memoryEngine();
      const cache = engine.view("p");
      await cache.set("short", "v", 50);
      await cache.set("long", "v");
      expect(await cache.get("short")).toBe("v");
      vi.setSystemTime(Date.now() + 120);
      expect(await cache.get("short")).toBeUndefined();
      expect(await cache.get("long")).toBe("v");
    } finally {
      vi.useRealTimers();
    }
  });

  it("stays within its bounds, dropping the least recently used", async () => {
    const { engine } = memoryEngine({}, { maxBytes: 1_000_000, maxEntries: 3 });
    const cache = engine.view("p");
    for (const key of ["a", "b", "c"]) await cache.set(key, key);
    await cache.get("a");
    await cache.set("d", "d");
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("a")).toBe("a");
    expect((await engine.stats()).entries).toEqual({ p: 3 });
  });

  it("refuses an entry over maxEntryBytes or a bad TTL without degrading, and says why", async () => {
    const { engine } = memoryEngine({ maxEntryBytes: 100, failureThreshold: 1 });
    const cache = engine.view("p");
    await cache.set("big", "x".repeat(200));
    await cache.set("ttl", "v", -5);
    expect(await cache.get("big")).toBeUndefined();
    expect(await cache.get("ttl")).toBeUndefined();
    const stats = await engine.stats();
    expect(stats.state).toBe("connected");
    expect(stats.errors).toBe(2);
    expect(stats.lastError?.message).toMatch(/ttl of -5 ms/);
  });

  it("answers reads made together, each with its own value", async () => {
    const { engine } = memoryEngine();
    const cache = engine.view("p");
    await Promise.all(["a", "b", "c"].map((key) => cache.set(key, key.toUpperCase())));
    expect(await Promise.all(["a", "nope", "c", "b"].map((key) => cache.get(key)))).toEqual(["A", undefined, "C", "B"]);
    expect(await engine.stats()).toMatchObject({ hits: 3, misses: 1 });
  });

  it("counts hits, misses and entries per namespace", async () => {
    const { engine } = memoryEngine();
    await engine.view("a").set("1", 1);
    await engine.view("a").set("2", 2);
    await engine.view("b:odd%name").set("1", 1);
    await engine.view("a").get("1");
    await engine.view("a").get("nope");
    const stats = await engine.stats();
    expect(stats).toMatchObject({
      backend: "memory",
      state: "connected",
      hits: 1,
      misses: 1,
      hitRatio: 0.5,
      errors: 0,
      bypassed: 0,
    });
    expect(stats.entries).toEqual({ a: 2, "b:odd%name": 1 });
    expect(stats.entriesComplete).toBe(true);
    expect(stats.lastError).toBeNull();
  });

  it("does nothing once closed, and every method still resolves", async () => {
    const { engine } = memoryEngine();
    const cache = engine.view("p");
    await cache.set("k", 1);
    await engine.close();
    expect(await cache.get("k")).toBeUndefined();
    await expect(cache.set("k", 2)).resolves.toBeUndefined();
    await expect(cache.delete("k")).resolves.toBeUndefined();
  });
});
