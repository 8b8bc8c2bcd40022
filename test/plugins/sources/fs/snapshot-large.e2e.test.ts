// A root whose snapshot spans many chunks, against a redis-server of the test's own: the store's
// sizes are made small, so that 60 skills take the paths 100,000 real ones do (many chunks, a
// rewrite that keeps the unchanged ones, the cap).
import { utimes } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CacheEngine } from "../../../../src/cache/engine.js";
import { createRedisBackend } from "../../../../src/cache/redis-backend.js";
import { parseRedisUrl } from "../../../../src/cache/redis-url.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { SNAPSHOT_FORMAT, type SnapshotTuning } from "../../../../src/plugins/sources/fs/snapshot-store.js";
import { VERSION } from "../../../../src/version.js";
import { TestRedis } from "../../../helpers/redis.js";
import { waitFor } from "../../../helpers/wait.js";
import { age, skillMd, snapshottedSource, tempDir, writeSkillFile } from "./files.js";

const NAMESPACE = `fs/snapshot-v${SNAPSHOT_FORMAT}@${VERSION}`;
/** About 20 skills' JSON a chunk at most: 60 skills and their folders make well over eight chunks. */
const SMALL: SnapshotTuning = { chunkChars: 4_000, maxStoredChars: 1_000_000, flushMs: 3_000 };

/** A process's fs source over `root`, with a cache engine on the test's Redis, and its debug lines. */
async function processOver(root: string, url: string, tuning: SnapshotTuning, prefix = "large") {
  const backend = createRedisBackend({ location: parseRedisUrl(url), connectTimeoutMs: 1_000 });
  const cache = new CacheEngine({
    backend,
    logger: createLogger("silent"),
    prefix,
    defaultTtlMs: 60_000,
    operationTimeoutMs: 2_000,
    failureThreshold: 3,
    retryAfterMs: 1_000,
    maxEntryBytes: 1_048_576,
  });
  await backend.connect();
  const { source, logs } = snapshottedSource(root, cache, tuning);
  return {
    load: () => source.load(new AbortController().signal),
    filesRead: () =>
      Number(
        /: (\d+) of \d+ SKILL\.md files read/.exec(logs.findLast((line) => line.includes("SKILL.md files read"))!)![1],
      ),
    /** The last "kept a snapshot" line's entries and how many of them were written. */
    kept: () => {
      const line = logs.findLast((entry) => entry.includes("kept a snapshot"));
      const match = line && / in (\d+) cache entries, (\d+) written/.exec(line);
      return match ? { entries: Number(match[1]), written: Number(match[2]) } : undefined;
    },
    logs,
    entries: async () => (await cache.stats()).entries?.[NAMESPACE] ?? 0,
    close: () => cache.close(),
  };
}

describe("a root whose snapshot spans many chunks", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis.kill();
  });

  it("is kept whole, read back whole, and a change rewrites only the chunk that holds it", async () => {
    const root = await tempDir();
    for (let i = 0; i < 60; i++)
      await writeSkillFile(
        root,
        `skill-${i}`,
        skillMd(`skill-${i}`, `Skill number ${i}, ${"with a body of words ".repeat(20)}`),
      );
    await age(root);

    const first = await processOver(root, redis.url, SMALL);
    const loaded = await first.load();
    await waitFor("the snapshot kept", () => first.kept() !== undefined);
    const { entries, written } = first.kept()!;
    expect(entries).toBeGreaterThan(8);
    expect(written).toBe(entries);
    // The head and its chunks, nothing more.
    expect(await first.entries()).toBe(entries + 1);
    await first.close();

    const restart = await processOver(root, redis.url, SMALL);
    expect(await restart.load()).toEqual(loaded);
    expect(restart.filesRead()).toBe(0);
    await restart.close();

    await writeSkillFile(root, "skill-7", skillMd("skill-7", "Changed."));
    await utimes(join(root, "skill-7", "SKILL.md"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const changed = await processOver(root, redis.url, SMALL);
    const reloaded = await changed.load();
    expect(reloaded.skills.find((skill) => skill.name === "skill-7")!.description).toBe("Changed.");
    expect(changed.filesRead()).toBe(1);
    await waitFor("the new snapshot kept", () => changed.kept() !== undefined);
    // One group of records changed: its chunk (or the halves it was split into) is written, the others kept.
    expect(changed.kept()!.written).toBeGreaterThanOrEqual(1);
    expect(changed.kept()!.written).toBeLessThanOrEqual(2);
    // The replaced chunk is deleted once the new head has landed.
    await waitFor("the replaced chunk deleted", async () => (await changed.entries()) === changed.kept()!.entries + 1);
    await changed.close();

    const last = await processOver(root, redis.url, SMALL);
    expect(await last.load()).toEqual(reloaded);
    expect(last.filesRead()).toBe(0);
    await last.close();
  });

  it("is not kept past its cap, and leaves no chunk behind", async () => {
    const root = await tempDir();
    for (let i = 0; i < 60; i++)
      await writeSkillFile(
        root,
        `skill-${i}`,
        skillMd(`skill-${i}`, `Skill number ${i}, ${"with a body of words ".repeat(20)}`),
      );
    await age(root);
    const capped = await processOver(root, redis.url, { ...SMALL, maxStoredChars: 3_000 }, "capped");
    await capped.load();
    await waitFor("the refusal logged", () => capped.logs.some((line) => line.includes("not keeping a snapshot")));
    await waitFor("no chunk left", async () => (await capped.entries()) === 0);
    await capped.close();

    const restart = await processOver(root, redis.url, SMALL, "capped");
    await restart.load();
    expect(restart.filesRead()).toBe(60);
    await restart.close();
  });
});
