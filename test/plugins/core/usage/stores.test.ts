import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../../src/kernel/logger.js";
import { FileUsageStore } from "../../../../src/plugins/core/usage/file-store.js";
import { MemoryUsageStore } from "../../../../src/plugins/core/usage/memory-store.js";
import { ALL_CALLERS, BUCKETS, DAY_MS, dayOf } from "../../../../src/skills/usage/buckets.js";
import { UsageTally, writePending } from "../../../../src/skills/usage/tally.js";

const NOW = Date.parse("2025-06-10T12:00:00Z");
const logger = createLogger("silent");
const amounts = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe("the in-process store", () => {
  it("adds counters, keeps the latest time and counts distinct members across buckets", async () => {
    const store = new MemoryUsageStore("memory", 100, () => NOW);
    const later = NOW + DAY_MS;
    await store.increment("c", amounts({ a: 1, b: 2 }), later);
    await store.increment("c", amounts({ a: 3 }), later);
    await store.keepLatest("t", amounts({ a: 5 }), later);
    await store.keepLatest("t", amounts({ a: 4 }), later);
    await store.addDistinct("d1", ["x", "y"], later);
    await store.addDistinct("d2", ["y", "z"], later);
    expect([...(await store.counters(["c", "missing"]))[0]!]).toEqual([
      ["a", 4],
      ["b", 2],
    ]);
    expect((await store.latest(["t"]))[0]!.get("a")).toBe(5);
    expect(await store.countDistinct(["d1", "d2", "missing"])).toBe(3);
  });

  it("drops a bucket at its expiry, and new fields past its bound (held ones still count)", async () => {
    let now = NOW;
    const store = new MemoryUsageStore("memory", 2, () => now);
    await store.increment("c", amounts({ a: 1, b: 1, c: 1 }), NOW + 10);
    await store.increment("c", amounts({ a: 1 }), NOW + 10);
    expect(store.dropped).toBe(1);
    expect([...(await store.counters(["c"]))[0]!]).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    now = NOW + 10;
    expect((await store.counters(["c"]))[0]!.size).toBe(0);
    await store.increment("e", amounts({ c: 1 }), NOW + 20);
    expect(store.size).toBe(1);
  });
});

describe("the store in the cache folder", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "usage-file-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("adds up what several processes sharing the file saved, and lasts beyond them", async () => {
    const file = join(dir, "usage", "usage.json");
    const one = new FileUsageStore(file, 1000, () => NOW, logger);
    const two = new FileUsageStore(file, 1000, () => NOW, logger);
    await Promise.all([one.open(), two.open()]);
    await one.increment("c", amounts({ a: 1 }), NOW + DAY_MS);
    await two.increment("c", amounts({ a: 2, b: 1 }), NOW + DAY_MS);
    await two.addDistinct("d", ["x"], NOW + DAY_MS);
    await one.addDistinct("d", ["x", "y"], NOW + DAY_MS);
    await Promise.all([one.save(), two.save()]);
    const third = new FileUsageStore(file, 1000, () => NOW, logger);
    await third.open();
    expect(Object.fromEntries((await third.counters(["c"]))[0]!)).toEqual({ a: 3, b: 1 });
    expect(await third.countDistinct(["d"])).toBe(2);
    // Only its owner may read it: misses hold what people typed.
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("starts afresh from a file it cannot read, and replaces it at the next save", async () => {
    const file = join(dir, "usage.json");
    await writeFile(file, "{not json");
    const lines: string[] = [];
    const store = new FileUsageStore(file, 1000, () => NOW, { ...logger, warn: (line: string) => lines.push(line) });
    await store.open();
    expect(lines[0]).toContain("cannot be read, starting afresh");
    await store.increment("c", amounts({ a: 1 }), NOW + DAY_MS);
    await store.save();
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ version: 1 });
  });

  it("keeps only what has the saved form when the file was edited by hand", async () => {
    const file = join(dir, "usage.json");
    const exp = NOW + DAY_MS;
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        buckets: [
          [
            "c",
            "counters",
            exp,
            [
              ["a", 2],
              ["b", -1],
              ["c", "x"],
              [3, 1],
            ],
          ],
          ["t", "nonsense", exp, [["a", 1]]],
          "junk",
        ],
      }),
    );
    const store = new FileUsageStore(file, 1000, () => NOW, logger);
    await store.open();
    expect(Object.fromEntries((await store.counters(["c"]))[0]!)).toEqual({ a: 2 });
    expect((await store.latest(["t"]))[0]!.size).toBe(0);
  });
});

describe("the tally", () => {
  it("counts each use for every caller and each group, and writes it into a store", async () => {
    const tally = new UsageTally({ maxPendingFields: 1000, maxMissesPerDay: 10 });
    const skill = { source: "s", name: "pdf" };
    tally.count(skill, ["searchHits", "firstHits"], ["groups:a"], NOW);
    tally.count(skill, ["searchHits"], ["groups:a"], NOW + 5);
    const store = new MemoryUsageStore("memory", 1000, () => NOW);
    await writePending(store, tally.take(), 90);
    expect(tally.empty).toBe(true);
    const day = dayOf(NOW);
    const [all, group] = await store.counters([BUCKETS.skills(day, ALL_CALLERS), BUCKETS.skills(day, "groups:a")]);
    expect(Object.fromEntries(all!)).toEqual({ '["s","pdf","s"]': 2, '["s","pdf","f"]': 1 });
    expect(group).toEqual(all);
    expect((await store.latest([BUCKETS.lastUsed(day, ALL_CALLERS)]))[0]!.get('["s","pdf"]')).toBe(NOW + 5);
  });

  it("records at most maxMissesPerDay texts a day and maxPendingFields between writes, counting the rest as dropped", () => {
    const tally = new UsageTally({ maxPendingFields: 1000, maxMissesPerDay: 2 });
    for (const text of ["a", "b", "c", "a"]) tally.miss(text, "caller", [], NOW);
    expect(tally.dropped).toBe(1);
    tally.miss("c", "caller", [], NOW + DAY_MS);
    expect(tally.dropped).toBe(1);
    const small = new UsageTally({ maxPendingFields: 3, maxMissesPerDay: 10 });
    small.count({ source: "s", name: "x" }, ["reads"], [], NOW);
    small.count({ source: "s", name: "y" }, ["reads"], [], NOW);
    expect(small.dropped).toBeGreaterThan(0);
  });
});
