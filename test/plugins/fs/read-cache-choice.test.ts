import { utimes } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_TOKENS } from "../../../src/cache/tokens.js";
import { createKernel } from "../../../src/create-kernel.js";
import { createLogger } from "../../../src/kernel/logger.js";
import { VERSION } from "../../../src/version.js";
import { TestRedis, waitFor } from "../../helpers/redis.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const NAMESPACE = `fs/skill-md@${VERSION}`;

/** A kernel over a root of two skills, files old enough to be kept (past the racy window). */
async function bootOver(cachePlugins: unknown[]) {
  const root = await tempDir();
  const past = new Date(Date.now() - 60_000);
  for (const name of ["alpha", "beta"]) await utimes(await writeSkillFile(root, name, skillMd(name)), past, past);
  const kernel = await createKernel({
    config: { plugins: [...cachePlugins, ["fs", { roots: [root], watch: false }]] as never },
    logger: createLogger("silent"),
  });
  await kernel.catalog.ready();
  return { kernel, entries: async () => (await kernel.resolve(CACHE_TOKENS.CacheMonitor).stats()).entries?.[NAMESPACE] ?? 0 };
}

describe("which caches the fs source keeps its reads in", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis.kill();
  });

  it("none in the default in-process cache, whose copies would die with the reads they copy", async () => {
    const { kernel, entries } = await bootOver([]);
    try {
      expect(kernel.plugins).toContain("cache-memory");
      expect(kernel.catalog.list().map((skill) => skill.name)).toEqual(["alpha", "beta"]);
      expect(await entries()).toBe(0);
    } finally {
      await kernel.close();
    }
  });

  it("every read in a cache that outlives the process (Redis)", async () => {
    const { kernel, entries } = await bootOver([["cache-redis", { url: redis.url }]]);
    try {
      await waitFor("two stored reads", async () => (await entries()) === 2);
    } finally {
      await kernel.close();
    }
  });
});
