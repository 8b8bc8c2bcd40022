import { describe, expect, it } from "vitest";
import type { Cache } from "../../src/kernel/cache.js";
import { definePlugin } from "../../src/kernel/config.js";
import { createKernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import { TOKENS } from "../../src/tokens.js";
import { freePort } from "../helpers/free-port.js";

/** A plugin that keeps the cache view it resolves, to show whose namespace it is. */
function consumer(name: string, seen: Cache[], optional = false) {
  return definePlugin({
    name,
    consumes: [{ token: TOKENS.Cache, optional }],
    setup(ctx) {
      const cache = ctx.resolveOptional(TOKENS.Cache);
      if (cache) seen.push(cache);
    },
  });
}

const boot = (plugins: unknown[]) =>
  createKernel({ config: { plugins: plugins as never }, logger: createLogger("silent") });

describe("the default cache (the Cache token names cache-memory as its default)", () => {
  it("is cache-memory when the config names no cache, for every consumer, each in its own namespace", async () => {
    const seen: Cache[] = [];
    const plain = definePlugin({
      name: "three",
      consumes: [TOKENS.Cache],
      setup: (ctx) => void seen.push(ctx.resolve(TOKENS.Cache)),
    });
    const kernel = await boot([consumer("one", seen), consumer("two", seen, true), plain]);
    try {
      expect(kernel.plugins).toContain("cache-memory");
      expect(seen.map((cache) => cache.namespace)).toEqual(["one", "two", "three"]);
      await seen[0]!.set("k", "one's");
      expect(await seen[1]!.get("k")).toBeUndefined();
    } finally {
      await kernel.close();
    }
  });

  it("is not booted when no plugin consumes the cache", async () => {
    const kernel = await boot(["list-skills"]);
    expect(kernel.plugins).not.toContain("cache-memory");
    await kernel.close();
  });

  it("gives way to a cache the config names, built in or its own", async () => {
    // No Redis needed: cache-redis boots while its server is unreachable, and reconnects later.
    const redisKernel = await boot([
      ["cache-redis", { url: `redis://127.0.0.1:${await freePort()}`, connectTimeoutMs: 500 }],
    ]);
    expect(redisKernel.plugins).toContain("cache-redis");
    expect(redisKernel.plugins).not.toContain("cache-memory");
    await redisKernel.close();

    const own = definePlugin({
      name: "my-cache",
      provides: [TOKENS.Cache],
      setup(ctx) {
        ctx.provideScoped(TOKENS.Cache, (who) => ({ namespace: `mine/${who.name}` }) as Cache);
      },
    });
    const seen: Cache[] = [];
    const ownKernel = await boot([own, consumer("user", seen)]);
    expect(ownKernel.plugins).not.toContain("cache-memory");
    expect(seen[0]!.namespace).toBe("mine/user");
    await ownKernel.close();
  });
});
