// The cache engine against a redis-server of the test's own (test/helpers/redis.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CacheEngineOptions } from "../../src/cache/engine.js";
import { createClient } from "@keyv/redis";
import { fullKey } from "../../src/cache/keys.js";
import { createRedisBackend } from "../../src/cache/redis-backend.js";
import { parseRedisUrl } from "../../src/cache/redis-url.js";
import { freePort } from "../helpers/free-port.js";
import { TestRedis } from "../helpers/redis.js";
import { waitFor } from "../helpers/wait.js";
import { engineOver } from "./engine-over.js";

async function redisEngine(url: string, overrides: Partial<CacheEngineOptions> = {}) {
  const backend = createRedisBackend({ location: parseRedisUrl(url), connectTimeoutMs: 500 });
  const made = engineOver(backend, overrides);
  backend.connect().catch(() => {});
  return made;
}

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

  it("refuses sealed entries changed in Redis, moved to another key, or sealed with another secret (issue 34, item 7)", async () => {
    const secret = "s".repeat(32);
    const writer = await redisEngine(redis.url, { prefix: "sealed", secret });
    await waitFor("connected", () => writer.engine.state === "connected");
    const view = writer.engine.view("fs");
    await view.set("a", { description: "The real one." });
    await view.set("b", { description: "Another." });
    expect(await view.get("a")).toEqual({ description: "The real one." });
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const keyA = fullKey("sealed", "fs", "a");
      const keyB = fullKey("sealed", "fs", "b");
      const stored = (await raw.get(keyA))!;
      // Well-formed, the seal kept, the content changed: refused.
      await raw.set(keyA, stored.replace("The real one.", "Tampered text"));
      // A valid entry copied under another key: refused, it names the key it was sealed for.
      await raw.set(keyB, stored);
      // What an older release (or anyone without the secret) writes: plain JSON, refused.
      await raw.set(
        fullKey("sealed", "fs", "c"),
        JSON.stringify({ value: { description: "Planted." }, expires: null }),
      );
      expect(await view.get("a")).toBeUndefined();
      expect(await view.get("b")).toBeUndefined();
      expect(await view.get("c")).toBeUndefined();
      expect((await writer.engine.stats()).errors).toBe(3);
      expect(
        writer.logs.filter((line) => line.includes("warn: a cache entry without this server's seal was refused")),
      ).toHaveLength(1);
      // Another secret reads nothing this one wrote.
      await view.set("d", 1);
      const other = await redisEngine(redis.url, { prefix: "sealed", secret: "t".repeat(32) });
      await waitFor("connected", () => other.engine.state === "connected");
      expect(await other.engine.view("fs").get("d")).toBeUndefined();
      expect(await view.get("d")).toBe(1);
      await other.engine.close();
    } finally {
      await raw.close();
      await writer.engine.close();
    }
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
