import type { FSWatcher } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";
import { waitFor } from "./watching.js";

// fs.watch failing for real needs a full inotify table (a system-wide setting): fake the failures.
const fake = vi.hoisted(() => ({ made: 0, throwAfter: Infinity, watchers: [] as FSWatcher[] }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const watch = (...args: Parameters<typeof fs.watch>) => {
    if (fake.made++ >= fake.throwAfter) {
      throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });
    }
    const watcher = fs.watch(...args);
    fake.watchers.push(watcher);
    return watcher;
  };
  return { ...fs, watch, default: { ...fs, watch } };
});

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  Object.assign(fake, { made: 0, throwAfter: Infinity, watchers: [] });
});

async function watchRoot(root: string) {
  const { sources, logs } = await setupFs({ roots: [root], pollIntervalMs: 100 }, root);
  const source = sources[0]!;
  let calls = 0;
  stops.push(source.watch!(() => calls++));
  await waitFor(() => calls > 0, "the watch to start");
  return {
    logs,
    descriptions: async () =>
      (await source.load(new AbortController().signal)).skills.map((skill) => skill.description),
    async change(action: () => Promise<unknown>) {
      calls = 0;
      await action();
      await waitFor(() => calls > 0, "a change signal");
    },
  };
}

describe("when fs.watch fails", () => {
  it("polls every further folder once the watch limit is reached, and says so once", async () => {
    const root = await tempDir();
    const alpha = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    await writeSkillFile(root, "beta", skillMd("beta", "Beta."));
    fake.throwAfter = 1;
    const watching = await watchRoot(root);
    const warnings = watching.logs.filter((line) => line.includes("warn:"));
    expect(warnings).toEqual([expect.stringContaining("cannot watch more folders (ENOSPC: System limit")]);
    const mode = "watching 1 folders for changes, polling 4 paths every 100 ms (fs.watch failed with ENOSPC)";
    expect(watching.logs.some((line) => line.includes(mode))).toBe(true);
    // fs.watch is not tried again for the rest of this watch.
    expect(fake.made).toBe(2);

    await watching.change(() => writeFile(alpha, skillMd("alpha", "After, polled.")));
    expect(await watching.descriptions()).toEqual(["After, polled.", "Beta."]);
  });

  it("polls a folder whose watcher reports an error, as Deno does for a watch it cannot set", async () => {
    const root = await tempDir();
    const alpha = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const watching = await watchRoot(root);
    expect(fake.watchers).toHaveLength(2);
    // The second folder armed is alpha/ (breadth first, after the root).
    await watching.change(async () => {
      fake.watchers[1]!.emit("error", Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" }));
    });
    expect(watching.logs.some((line) => line.includes(`cannot watch ${dirname(alpha)} (EACCES`))).toBe(true);
    // alpha/ and its SKILL.md, from the rescan that follows.
    const polling = "polling 2 paths every 100 ms (fs.watch refused some folders)";
    await waitFor(() => watching.logs.some((line) => line.includes(polling)), "alpha/ to be polled");
    await watching.change(() => writeFile(alpha, skillMd("alpha", "After, polled.")));
    expect(await watching.descriptions()).toEqual(["After, polled."]);
  });
});
