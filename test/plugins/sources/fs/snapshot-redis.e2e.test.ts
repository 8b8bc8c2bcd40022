// The fs source's snapshots through a whole kernel, against a redis-server of the test's own:
// restarts over files changed, added and removed while no server ran, two servers sharing one
// snapshot, and which caches get snapshots at all.
import { readdir, rm, utimes } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { TOKENS } from "../../../../src/tokens.js";
import { VERSION } from "../../../../src/version.js";
import { TestRedis } from "../../../helpers/redis.js";
import { waitFor } from "../../../helpers/wait.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const NAMESPACE = `fs/snapshot-v2@${VERSION}`;

/** Paths made older than the racy window (each path's own ctime changes: only age what changed anyway). */
async function ageOnly(...paths: string[]) {
  const past = new Date(Date.now() - 60_000);
  for (const path of paths) await utimes(path, past, past);
}

async function ageTree(root: string) {
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
    await ageOnly(join(entry.parentPath, entry.name));
  await ageOnly(root);
}

/** A kernel over `root`, its catalog loaded, with its debug lines. */
async function bootOver(root: string, cachePlugins: unknown[], fsOptions: Record<string, unknown> = {}) {
  const logs: string[] = [];
  const kernel = await createKernel({
    config: { plugins: [...cachePlugins, ["fs", { roots: [root], watch: false, ...fsOptions }]] as never },
    logger: createLogger("debug", (line) => logs.push(line)),
  });
  await kernel.catalog.ready();
  const monitor = kernel.resolve(TOKENS.CacheMonitor);
  return {
    kernel,
    skills: () => kernel.catalog.list().map((skill) => `${skill.name}: ${skill.description}`),
    /** SKILL.md files read by the load, from its debug line. */
    filesRead: () =>
      Number(
        /: (\d+) of \d+ SKILL\.md files read/.exec(logs.find((line) => line.includes("SKILL.md files read"))!)![1],
      ),
    kept: () => logs.some((line) => line.includes("kept a snapshot")),
    entries: async () => (await monitor.stats()).entries?.[NAMESPACE] ?? 0,
  };
}

describe("fs snapshots in Redis", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis.kill();
  });

  it("serve what changed on disk while no server ran, reading only that", async () => {
    const root = await tempDir();
    for (const name of ["alpha", "beta", "gamma"]) await writeSkillFile(root, name, skillMd(name, `Old ${name}.`));
    await ageTree(root);
    const first = await bootOver(root, [["cache-redis", { url: redis.url }]]);
    expect(first.filesRead()).toBe(3);
    await waitFor("the snapshot kept", () => first.kept());
    await first.kernel.close();

    await writeSkillFile(root, "alpha", skillMd("alpha", "Changed alpha."));
    await writeSkillFile(root, "delta", skillMd("delta", "Added."));
    await rm(join(root, "beta"), { recursive: true });
    await ageOnly(root, join(root, "alpha", "SKILL.md"), join(root, "delta"), join(root, "delta", "SKILL.md"));
    const second = await bootOver(root, [["cache-redis", { url: redis.url }]]);
    try {
      expect(second.skills()).toEqual(["alpha: Changed alpha.", "delta: Added.", "gamma: Old gamma."]);
      expect(second.filesRead()).toBe(2);
      await waitFor("the new snapshot kept", () => second.kept());

      // A second server on the same Redis, while the first runs: every read is the snapshot's.
      const third = await bootOver(root, [["cache-redis", { url: redis.url }]]);
      try {
        expect(third.skills()).toEqual(second.skills());
        expect(third.filesRead()).toBe(0);
        expect(third.kept()).toBe(false);
      } finally {
        await third.kernel.close();
      }
    } finally {
      await second.kernel.close();
    }
  });

  it("load from disk when Redis is gone", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await ageTree(root);
    const gone = await TestRedis.start();
    await gone.kill();
    const server = await bootOver(root, [["cache-redis", { url: gone.url, connectTimeoutMs: 500 }]]);
    try {
      expect(server.skills()).toEqual(["alpha: The alpha skill."]);
      expect(server.filesRead()).toBe(1);
    } finally {
      await server.kernel.close();
    }
  });

  it("are kept on disk, not in the default in-process cache, whose copies would die with the reads they copy", async () => {
    const [root, cacheDir] = [await tempDir(), await tempDir()];
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await ageTree(root);
    const server = await bootOver(root, [], { cacheDir });
    try {
      expect(server.kernel.plugins).toContain("cache-memory");
      expect(server.skills()).toEqual(["alpha: The alpha skill."]);
      await waitFor(
        "the snapshot's head and chunk on disk",
        async () => (await readdir(join(cacheDir, "snapshots")).catch(() => [])).length === 2,
      );
      expect(await server.entries()).toBe(0);
    } finally {
      await server.kernel.close();
    }
  });

  it("are kept in a cache that outlives the process (Redis): a head and its chunks", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await ageTree(root);
    const server = await bootOver(root, [["cache-redis", { url: redis.url, prefix: "entries-test" }]]);
    try {
      await waitFor("the snapshot's two entries", async () => (await server.entries()) === 2);
    } finally {
      await server.kernel.close();
    }
  });
});
