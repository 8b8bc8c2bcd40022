import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";
import { HAS_INOTIFY_INFO, inotifyWatches, waitFor, watchedInodes } from "./watching.js";

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Watches `root` with the plugin's defaults; `signals()` counts change signals so far. */
async function watch(root: string, extra: Record<string, unknown> = {}) {
  const { sources, logs } = await setupFs({ roots: [root], ...extra }, root);
  const source = sources[0]!;
  let signals = 0;
  return {
    source,
    logs,
    signals: () => signals,
    load: () => source.load(new AbortController().signal),
    start() {
      stops.push(source.watch!(() => signals++));
    },
    /** Resolves once the watcher's walk has armed every folder (its mode line is logged then). */
    armed: () => waitFor(() => logs.some((line) => line.includes("watching ")), "the watcher's first walk"),
  };
}

/**
 * Waits until this process watches the folder now at `path` (Linux only). Its inode number may
 * be the old folder's, recycled, but the kernel drops a deleted folder's watch at once.
 */
async function watchedNow(path: string): Promise<void> {
  if (!HAS_INOTIFY_INFO) return;
  const { ino } = await stat(path);
  await waitFor(() => watchedInodes().has(ino), `a watch on the folder now at ${path}`);
}

describe.skipIf(!HAS_INOTIFY_INFO)(
  `a folder replaced at the same path${HAS_INOTIFY_INFO ? "" : " (skipped: it counts inotify watches, Linux only)"}`,
  () => {
    it("re-arms a root deleted and made again, and serves what is written in it later", async () => {
      const base = await tempDir();
      const root = join(base, "skills");
      await writeSkillFile(root, "alpha", skillMd("alpha"));
      const watching = await watch(root);
      watching.start();
      await watching.armed();
      await watchedNow(root);

      await rm(root, { recursive: true });
      await mkdir(root);
      // The new root's own watcher is the only one that can see what follows.
      await watchedNow(root);
      const before = watching.signals();
      await writeSkillFile(root, "beta", skillMd("beta"));
      await waitFor(() => watching.signals() > before, "a signal for a skill in the new root");
      expect((await watching.load()).skills.map((skill) => skill.name)).toEqual(["beta"]);
    });

    it("re-arms a skill folder deleted and made again, then sees its SKILL.md edited in place", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "alpha", skillMd("alpha", "First."));
      const watching = await watch(root);
      watching.start();
      await watching.armed();

      await rm(join(root, "alpha"), { recursive: true });
      const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Second."));
      await watchedNow(join(root, "alpha"));
      const before = watching.signals();
      // Written in place: no event in the root, only in alpha/ itself.
      await writeFile(file, skillMd("alpha", "Third."));
      await waitFor(() => watching.signals() > before, "a signal for the edit");
      expect((await watching.load()).skills.map((skill) => skill.description)).toEqual(["Third."]);
    });

    it("re-arms a skill folder another was renamed into the place of", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "alpha", skillMd("alpha", "Old."));
      const staging = join(root, ".staging");
      const watching = await watch(root);
      watching.start();
      await watching.armed();

      // What install with overwrite does: the new copy is made beside the old, then swapped in.
      const file = await writeSkillFile(staging, "alpha", skillMd("alpha", "New."));
      await rename(join(root, "alpha"), join(root, ".old"));
      await rename(join(staging, "alpha"), join(root, "alpha"));
      await rm(join(root, ".old"), { recursive: true });
      await watchedNow(join(root, "alpha"));
      const before = watching.signals();
      await writeFile(join(root, "alpha", "SKILL.md"), skillMd("alpha", "Edited."));
      await waitFor(() => watching.signals() > before, "a signal for the edit");
      expect(file).toBe(join(staging, "alpha", "SKILL.md"));
      expect((await watching.load()).skills.find((skill) => skill.path === "alpha")?.description).toBe("Edited.");
    });
  },
);

describe("arming the watchers after a load", () => {
  it("signals nothing when the walk that arms them finds what the load found", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeSkillFile(root, "group/beta", skillMd("beta"));
    const watching = await watch(root);
    await watching.load();
    watching.start();
    // The signal, when there is one, comes right after the walk logs its mode.
    await watching.armed();
    expect(watching.signals()).toBe(0);
  });

  it("signals a change made between the load and the arming", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const watching = await watch(root);
    await watching.load();
    await writeFile(file, skillMd("alpha", "After, longer."));
    watching.start();
    await watching.armed();
    expect(watching.signals()).toBe(1);
  });

  it("signals a skill folder added between the load and the arming", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    const watching = await watch(root);
    await watching.load();
    await writeSkillFile(root, "beta", skillMd("beta"));
    watching.start();
    await watching.armed();
    expect(watching.signals()).toBe(1);
  });

  it("loads the catalog once at start when serving", async () => {
    const root = await tempDir();
    for (const name of ["alpha", "beta", "gamma"]) await writeSkillFile(root, `team/${name}`, skillMd(name));
    const logs: string[] = [];
    const kernel = await createKernel({
      config: { plugins: [["fs", { roots: [root] }]] },
      baseDir: root,
      logger: createLogger("debug", (line) => logs.push(line)),
    });
    const lifetime = new AbortController();
    // What the catalog plugin's serve hook does, while the first load is under way.
    const stop = kernel.catalog.watch(lifetime.signal);
    // The catalog's debug line for each load it finishes.
    const loads = () => logs.filter((line) => /loaded \d+ of \d+ sources/.test(line)).length;
    try {
      await kernel.catalog.ready();
      await waitFor(() => logs.some((line) => line.includes("watching 5 folders")), "the watchers to be armed");
      // Long past the catalog's debounce: a reload asked for at arming would have begun.
      await sleep(1000);
      expect(loads()).toBe(1);
      await writeSkillFile(root, "team/delta", skillMd("delta"));
      await waitFor(() => loads() === 2, "the reload a new skill causes");
      expect(kernel.catalog.list().map((skill) => skill.name)).toContain("delta");
    } finally {
      stop();
      lifetime.abort();
      await kernel.close();
    }
  });
});

describe.skipIf(!HAS_INOTIFY_INFO)(
  `watching thousands of folders${HAS_INOTIFY_INFO ? "" : " (skipped: it counts inotify watches, Linux only)"}`,
  () => {
    it("watches every folder of a 2,101-folder root with the default limit, polling none", async () => {
      const root = await tempDir();
      await Promise.all(Array.from({ length: 30 }, (_, group) => mkdir(join(root, `g${group}`))));
      await Promise.all(
        Array.from({ length: 2070 }, (_, i) => writeSkillFile(root, `g${i % 30}/s${i}`, skillMd(`s${i}`))),
      );
      const baseline = inotifyWatches();
      const watching = await watch(root);
      watching.start();
      await watching.armed();
      const folders = 1 + 30 + 2070;
      expect(watching.logs.filter((line) => line.includes("watching "))).toEqual([
        expect.stringContaining(`watching ${folders} folders for changes`),
      ]);
      expect(watching.logs.some((line) => line.includes("polling"))).toBe(false);
      expect(inotifyWatches() - baseline).toBe(folders);
    });
  },
);
