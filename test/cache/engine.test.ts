import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CacheEngine, type CacheEngineOptions } from "../../src/cache/engine.js";
import { createMemoryBackend } from "../../src/cache/memory-backend.js";
import { createRedisBackend } from "../../src/cache/redis-backend.js";
import { parseRedisUrl } from "../../src/cache/redis-url.js";
import { createLogger } from "../../src/kernel/logger.js";
import { freePort, TestRedis, waitFor } from "../helpers/redis.js";

function engineOver(backend: CacheEngineOptions["backend"], overrides: Partial<CacheEngineOptions> = {}) {
  const logs: string[] = [];
  const engine = new CacheEngine({
    backend,
    logger: createLogger("debug", (line) => logs.push(line)),
    prefix: "test",
    defaultTtlMs: 60_000,
    operationTimeoutMs: 300,
    failureThreshold: 3,
    retryAfterMs: 200,
    maxEntryBytes: 10_000,
    ...overrides,
  });
  return { engine, logs };
}

function memoryEngine(overrides: Partial<CacheEngineOptions> = {}, bounds = { maxBytes: 1_000_000, maxEntries: 1_000 }) {
  return engineOver(createMemoryBackend(bounds), overrides);
}

async function redisEngine(url: string, overrides: Partial<CacheEngineOptions> = {}) {
  const backend = createRedisBackend({ location: parseRedisUrl(url), connectTimeoutMs: 500 });
  const made = engineOver(backend, overrides);
  backend.connect().catch(() => {});
  return made;
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
    const { engine } = memoryEngine();
    const cache = engine.view("p");
    await cache.set("short", "v", 50);
    await cache.set("long", "v");
    expect(await cache.get("short")).toBe("v");
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await cache.get("short")).toBeUndefined();
    expect(await cache.get("long")).toBe("v");
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
    expect(stats).toMatchObject({ backend: "memory", state: "connected", hits: 1, misses: 1, hitRatio: 0.5, errors: 0, bypassed: 0 });
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

describe("the cache engine over a real Redis", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis.kill();
  });

  it("shares entries between two engines on one Redis, each namespace apart", async () => {
    const first = await redisEngine(redis.url);
    const second = await redisEngine(redis.url);
    await waitFor("both connected", () => first.engine.state === "connected" && second.engine.state === "connected");
    await first.engine.view("fs").set("k", { from: "first" });
    expect(await second.engine.view("fs").get("k")).toEqual({ from: "first" });
    expect(await second.engine.view("other").get("k")).toBeUndefined();
    const stats = await second.engine.stats();
    expect(stats).toMatchObject({ backend: "redis", state: "connected", hits: 1, misses: 1 });
    expect(stats.entries).toMatchObject({ fs: 1 });
    await Promise.all([first.engine.close(), second.engine.close()]);
  });

  it("keeps deployments with different prefixes apart", async () => {
    const one = await redisEngine(redis.url, { prefix: "one" });
    const two = await redisEngine(redis.url, { prefix: "two" });
    await waitFor("both connected", () => one.engine.state === "connected" && two.engine.state === "connected");
    await one.engine.view("p").set("k", 1);
    expect(await two.engine.view("p").get("k")).toBeUndefined();
    expect((await two.engine.stats()).entries).toEqual({});
    await Promise.all([one.engine.close(), two.engine.close()]);
  });

  it("times out on a hung Redis, degrades, and comes back once it answers", async () => {
    const { engine, logs } = await redisEngine(redis.url);
    await waitFor("connected", () => engine.state === "connected");
    const cache = engine.view("p");
    await cache.set("k", "v");
    redis.pause();
    try {
      // These reads resolve while Redis is still frozen: each gives up at its deadline, and
      // three in a row (failureThreshold) open the breaker.
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await cache.get("k"));
      expect(answers).toEqual([undefined, undefined, undefined]);
      expect(engine.state).toBe("degraded");
      const bypassed = (await engine.stats()).bypassed;
      await cache.get("k");
      expect((await engine.stats()).bypassed).toBe(bypassed + 1);
    } finally {
      redis.resume();
    }
    // After retryAfterMs one read probes Redis; its answer closes the breaker.
    await waitFor("connected again", async () => (await cache.get("k")) === "v" && engine.state === "connected");
    expect(logs.filter((line) => line.includes("warn:"))).toHaveLength(1);
    expect(logs.some((line) => /info: the redis cache is back/.test(line))).toBe(true);
    await engine.close();
  });

  it("skips Redis while it is down, and reconnects by itself when it is back", async () => {
    const port = await freePort();
    const { engine, logs } = await redisEngine(`redis://127.0.0.1:${port}`);
    const cache = engine.view("p");
    await waitFor("degraded", () => engine.state === "degraded");
    expect(await cache.get("k")).toBeUndefined();
    await cache.set("k", "dropped");
    const stats = await engine.stats();
    // Neither operation waited on the refused connection: the breaker kept both from trying.
    expect(stats.bypassed).toBe(2);
    expect(stats.entries).toBeNull();
    expect(stats.lastError?.message).toMatch(/ECONNREFUSED/);

    const late = await TestRedis.startOn(port);
    try {
      await waitFor("connected", () => engine.state === "connected");
      await cache.set("k", "stored");
      expect(await cache.get("k")).toBe("stored");
      expect(logs.filter((line) => line.includes("warn:"))).toHaveLength(1);
    } finally {
      await engine.close();
      await late.kill();
    }
  });
});
