// The cache engine against a redis-server of the test's own (test/helpers/redis.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CacheEngineOptions } from "../../src/cache/engine.js";
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
