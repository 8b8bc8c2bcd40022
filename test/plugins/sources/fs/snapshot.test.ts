import { mkdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CacheEngine } from "../../../../src/cache/engine.js";
import { createMemoryBackend } from "../../../../src/cache/memory-backend.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { SNAPSHOT_FORMAT } from "../../../../src/plugins/sources/fs/snapshot-store.js";
import { VERSION } from "../../../../src/version.js";
import { waitFor } from "../../../helpers/wait.js";
import { age, skillMd, SNAPSHOT_LIMITS, snapshottedSource, tempDir, writeSkillFile } from "./files.js";

const NAMESPACE = `fs/snapshot-v${SNAPSHOT_FORMAT}@${VERSION}`;

function engine() {
  return new CacheEngine({
    backend: createMemoryBackend({ maxBytes: 10_000_000, maxEntries: 1_000 }),
    logger: createLogger("silent"),
    prefix: "test",
    defaultTtlMs: 60_000,
    operationTimeoutMs: 1_000,
    failureThreshold: 3,
    retryAfterMs: 1_000,
    maxEntryBytes: 1_000_000,
  });
}

/** A source as one process would make it, with the debug lines it logs. */
function sourceOver(root: string, cache: CacheEngine) {
  const { source, logs, snapshots } = snapshottedSource(root, cache);
  return {
    load: () => source.load(new AbortController().signal),
    /** Resolves once every snapshot the loads asked to keep is written, as at shutdown. */
    written: () => snapshots.flush(),
    /** What the last load read and listed afresh, from its debug line. */
    afresh() {
      const line = logs.findLast((entry) => entry.includes("SKILL.md files read"))!;
      const [, read, skills, listed, folders] =
        /: (\d+) of (\d+) SKILL\.md files read, (\d+) of (\d+) folders listed/.exec(line)!;
      return { read: Number(read), skills: Number(skills), listed: Number(listed), folders: Number(folders) };
    },
    kept: () => logs.filter((entry) => entry.includes("kept a snapshot")).length,
  };
}

/**
 * Only these paths made older: aging a path changes its ctime, which is part of its identity, so
 * aging a whole tree would make every file look changed.
 */
async function ageOnly(...paths: string[]) {
  const past = new Date(Date.now() - 60_000);
  for (const path of paths) await utimes(path, past, past);
}

const entries = async (cache: CacheEngine) => (await cache.stats()).entries?.[NAMESPACE] ?? 0;

/** A first process loads and keeps its snapshot. */
async function firstRun(root: string, cache: CacheEngine) {
  const first = sourceOver(root, cache);
  const loaded = await first.load();
  await waitFor("the snapshot kept", () => first.kept() === 1);
  return loaded;
}

/** Rewrites the records of the first snapshot chunk kept for `root`, as another process could. */
async function rewriteFirstChunk(root: string, cache: CacheEngine, rewrite: (records: unknown[][]) => unknown[]) {
  const store = cache.view("fs").scope(`snapshot-v2@${VERSION}`);
  const headKey = `${SNAPSHOT_LIMITS.maxFrontmatterBytes}/${SNAPSHOT_LIMITS.maxSkillFileBytes}:${root}`;
  const head = (await store.get(headKey)) as { chunks: [string, number, number][] };
  const chunkKey = `${headKey}#${head.chunks[0]![0]}`;
  const records = JSON.parse(
    brotliDecompressSync(Buffer.from((await store.get(chunkKey)) as string, "base64")).toString(),
  ) as unknown[][];
  await store.set(chunkKey, brotliCompressSync(JSON.stringify(rewrite(records))).toString("base64"));
}

describe("the fs source's snapshots", () => {
  it("gives a restart the same skills and diagnostics, listing no folder and reading no file", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeSkillFile(root, "beta", "---\nname: beta\n---\nno description\n");
    await writeSkillFile(
      root,
      "nested/gamma",
      `---\nname: gamma\ndescription: G.\nmetadata: { tags: [a, b] }\n---\n# Gamma\nBody — text.\n`,
    );
    await writeSkillFile(root, "warned", `---\nname: other-name\ndescription: Named otherwise.\n---\n`);
    await age(root);
    const cache = engine();
    const first = await firstRun(root, cache);
    expect(await entries(cache)).toBe(2); // the head and one chunk

    const restart = sourceOver(root, cache);
    const second = await restart.load();
    expect(second).toEqual(first);
    expect(restart.afresh()).toEqual({ read: 0, skills: 4, listed: 0, folders: 6 });
    expect(first.diagnostics.map((d) => [d.path, d.code])).toEqual([
      ["beta", "missing-description"],
      ["warned", "name-mismatch"],
    ]);
    const gamma = second.skills.find((skill) => skill.name === "gamma")!;
    expect(Object.getPrototypeOf(gamma.frontmatter)).toBeNull();
    expect(gamma.frontmatter.metadata).toEqual({ tags: ["a", "b"] });
    expect(gamma.excerpt).toBe("# Gamma\nBody — text.");
    // Nothing changed: nothing rewritten.
    await restart.written();
    expect(restart.kept()).toBe(0);
  });

  it("reads only what changed, was added or removed while no server ran, and keeps the new state", async () => {
    const root = await tempDir();
    for (const name of ["alpha", "beta", "gamma", "delta"])
      await writeSkillFile(root, `team/${name}`, skillMd(name, `Old ${name}.`));
    await age(root);
    const cache = engine();
    await firstRun(root, cache);

    await writeSkillFile(root, "team/alpha", skillMd("alpha", "Changed alpha."));
    await writeSkillFile(root, "team/epsilon", skillMd("epsilon", "Added."));
    await writeSkillFile(root, "team/gamma/refs/zeta", skillMd("zeta", "Added deeper."));
    await rm(join(root, "team", "beta"), { recursive: true });
    const team = join(root, "team");
    await ageOnly(
      team,
      join(team, "alpha", "SKILL.md"),
      join(team, "epsilon"),
      join(team, "epsilon", "SKILL.md"),
      join(team, "gamma"),
      join(team, "gamma", "refs"),
      join(team, "gamma", "refs", "zeta"),
      join(team, "gamma", "refs", "zeta", "SKILL.md"),
    );
    const restart = sourceOver(root, cache);
    const loaded = await restart.load();
    expect(loaded.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ["alpha", "Changed alpha."],
      ["delta", "Old delta."],
      ["epsilon", "Added."],
      ["gamma", "Old gamma."],
      ["zeta", "Added deeper."],
    ]);
    // alpha changed, epsilon and zeta are new; team lost beta and gained epsilon, gamma gained refs.
    expect(restart.afresh()).toEqual({ read: 3, skills: 5, listed: 5, folders: 8 });
    await waitFor("the new snapshot kept", () => restart.kept() === 1);

    const third = sourceOver(root, cache);
    expect(await third.load()).toEqual(loaded);
    expect(third.afresh()).toMatchObject({ read: 0, listed: 0 });
    // The replaced snapshot's chunks are gone: one head, one chunk.
    await waitFor("the old chunk deleted", async () => (await entries(cache)) === 2);
  });

  it("splits a large root into chunks, and reads them all back", async () => {
    const root = await tempDir();
    const filler = "x".repeat(30_000);
    for (let i = 0; i < 80; i++)
      await writeSkillFile(
        root,
        `s${i}`,
        `---\nname: s${i}\ndescription: D.\nmetadata:\n  filler: ${filler}\n---\n# S\n`,
      );
    await age(root);
    const cache = engine();
    const first = sourceOver(root, cache);
    const loaded = await first.load();
    await waitFor("the snapshot kept", () => first.kept() === 1);
    // 80 skills of about 30,000 characters each, in chunks of about 256 KB: more than one read of eight.
    expect(await entries(cache)).toBeGreaterThan(9);

    const restart = sourceOver(root, cache);
    expect(await restart.load()).toEqual(loaded);
    expect(restart.afresh()).toEqual({ read: 0, skills: 80, listed: 0, folders: 81 });
  });

  it("keeps no file or folder written a moment ago, nor a symlinked SKILL.md", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "old", skillMd("old"));
    const target = await writeSkillFile(root, "linked", skillMd("linked"), "real.md");
    await symlink(target, join(root, "linked", "SKILL.md"));
    await age(root);
    await writeSkillFile(root, "fresh", skillMd("fresh"));
    const cache = engine();
    await firstRun(root, cache);

    const restart = sourceOver(root, cache);
    expect((await restart.load()).skills.map((skill) => skill.name)).toEqual(["fresh", "linked", "old"]);
    // fresh (and the root, which it just changed) are read and listed again; the link is read every time.
    expect(restart.afresh()).toEqual({ read: 2, skills: 3, listed: 2, folders: 4 });
    // None of that is anything a snapshot would keep: not written again.
    await restart.written();
    expect(restart.kept()).toBe(0);
  });

  it("takes malformed records for misses, and rebuilds frontmatter as the parser would", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha", "From the file."));
    await writeSkillFile(root, "beta", skillMd("beta", "From the file."));
    await age(root);
    const cache = engine();
    await firstRun(root, cache);
    await rewriteFirstChunk(root, cache, (records) => {
      const planted = records.map((record) => {
        if (record[0] !== "s") return record;
        const copy = [...record];
        copy[7] =
          record[1] === "alpha"
            ? [0, 42, { name: "alpha" }, ""] // a description that is no string
            : JSON.parse(
                `[0, "Planted.", {"__proto__": {"polluted": true}, "name": "beta", "nested": [{"constructor": 1, "ok": 2}]}, ""]`,
              );
        return copy;
      });
      return [...planted, ["s"], ["d", "x", "not a number"], "junk", null];
    });

    const restart = sourceOver(root, cache);
    const [alpha, beta] = (await restart.load()).skills;
    expect(alpha!.description).toBe("From the file.");
    expect(beta!.description).toBe("Planted.");
    expect(Object.keys(beta!.frontmatter)).toEqual(["name", "nested"]);
    expect(Object.getPrototypeOf(beta!.frontmatter)).toBeNull();
    expect(beta!.frontmatter.nested).toEqual([Object.assign(Object.create(null), { ok: 2 })]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(restart.afresh()).toMatchObject({ read: 1, listed: 0 });
  });

  it("is read as its own by a runtime that reads timestamps coarser, and left as it is", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeSkillFile(root, "beta", skillMd("beta"));
    await age(root);
    const cache = engine();
    const first = await firstRun(root, cache);
    await rewriteFirstChunk(root, cache, (records) => {
      // As Deno reads them: mtime in whole milliseconds, ctime in whole seconds.
      const coarse = records.map((record) => {
        const copy = [...record];
        const [mtime, ctime] = record[0] === "s" ? [5, 6] : [4, 5];
        copy[mtime] = Math.floor(record[mtime] as number);
        copy[ctime] = Math.floor((record[ctime] as number) / 1000) * 1000;
        return copy;
      });
      expect(coarse).not.toEqual(records);
      return coarse;
    });

    const restart = sourceOver(root, cache);
    expect(await restart.load()).toEqual(first);
    expect(restart.afresh()).toMatchObject({ read: 0, listed: 0 });
    await restart.written();
    expect(restart.kept()).toBe(0);

    // A change is still seen against the coarser timestamps.
    await writeFile(join(root, "beta", "SKILL.md"), skillMd("beta", "Changed."));
    const changed = sourceOver(root, cache);
    expect((await changed.load()).skills.map((skill) => skill.description)).toContain("Changed.");
    expect(changed.afresh()).toMatchObject({ read: 1 });
  });

  it("gives a later load of the same process the listings of the last one", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await age(root);
    const cache = engine();
    const source = sourceOver(root, cache);
    await source.load();
    await mkdir(join(root, "beta"));
    await writeFile(join(root, "beta", "SKILL.md"), skillMd("beta"));
    await ageOnly(root, join(root, "beta"), join(root, "beta", "SKILL.md"));
    expect((await source.load()).skills.map((skill) => skill.name)).toEqual(["alpha", "beta"]);
    expect(source.afresh()).toEqual({ read: 1, skills: 2, listed: 2, folders: 3 });
  });
});
