import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CatalogChange } from "../../../../src/skills/catalog/catalog-types.js";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { CatalogSource } from "../../../../src/skills/types.js";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";
import { HAS_INOTIFY_INFO, inotifyWatches, waitFor } from "./watching.js";

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

interface Watching {
  readonly source: CatalogSource;
  /** Change signals since the last change(). */
  calls(): number;
  /** Runs `action` and waits for a change signal after it. */
  change(action: () => Promise<unknown>): Promise<void>;
  load(): ReturnType<CatalogSource["load"]>;
  stop(): void;
  readonly logs: string[];
}

/** Sets the fs plugin up over `roots` and starts watching its source, once it is armed. */
async function watchRoots(roots: unknown[], base: string, extra: Record<string, unknown> = {}): Promise<Watching> {
  const { sources, logs } = await setupFs({ roots, ...extra }, base);
  const source = sources[0]!;
  let calls = 0;
  const stop = source.watch!(() => calls++);
  stops.push(stop);
  // Once every folder is armed, the watch signals a change: a load before then may have missed one.
  await waitFor(() => calls > 0, "the watch to start");
  return {
    source,
    calls: () => calls,
    async change(action) {
      calls = 0;
      await action();
      await waitFor(() => calls > 0, "a change signal");
    },
    load: () => source.load(new AbortController().signal),
    stop,
    logs,
  };
}

const names = async (watching: Watching) => (await watching.load()).skills.map((skill) => skill.name);
const watchesNow = () => (HAS_INOTIFY_INFO ? inotifyWatches() : 0);

/** Waits until the process holds `count` more inotify watches than `baseline` (Linux only). */
async function settle(baseline: number, count: number): Promise<void> {
  if (!HAS_INOTIFY_INFO) return;
  await waitFor(
    () => inotifyWatches() === baseline + count,
    `${baseline + count} inotify watches (${inotifyWatches()} now)`,
  );
}

describe("watching local roots", () => {
  it("signals a skill added, and a reload finds it", async () => {
    const root = await tempDir();
    const watching = await watchRoots([root], root);
    await watching.change(() => writeSkillFile(root, "alpha", skillMd("alpha")));
    expect(await names(watching)).toEqual(["alpha"]);
  });

  it("signals a SKILL.md edited in place, seen by the skill folder's own watcher", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const baseline = watchesNow();
    const watching = await watchRoots([root], root);
    await settle(baseline, 2);
    await watching.change(() => writeFile(file, skillMd("alpha", "After.")));
    expect((await watching.load()).skills.map((skill) => skill.description)).toEqual(["After."]);
  });

  it("signals a skill folder deleted, and stops watching it", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeSkillFile(root, "beta", skillMd("beta"));
    const baseline = watchesNow();
    const watching = await watchRoots([root], root);
    await settle(baseline, 3);
    await watching.change(() => rm(join(root, "alpha"), { recursive: true }));
    expect(await names(watching)).toEqual(["beta"]);
    await settle(baseline, 2);
  });

  it("sees a skill appear two levels down in folders that existed, or were created after the watch began", async () => {
    const root = await tempDir();
    await mkdir(join(root, "old/group"), { recursive: true });
    const baseline = watchesNow();
    const watching = await watchRoots([root], root);
    await settle(baseline, 3);
    // Only old/group's own watcher can see this: nothing changes in the folders above it.
    await watching.change(() => writeFile(join(root, "old/group/SKILL.md"), skillMd("group")));
    expect(await names(watching)).toEqual(["group"]);

    await watching.change(() => mkdir(join(root, "new/team"), { recursive: true }));
    await settle(baseline, 5);
    await watching.change(() => writeSkillFile(root, "new/team/tools", skillMd("tools")));
    // By path: new/team/tools, then old/group.
    expect(await names(watching)).toEqual(["tools", "group"]);
  });

  it("ignores what no load reads: other files written in place, node_modules, .git", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeFile(join(root, "alpha/notes.txt"), "one");
    const watching = await watchRoots([root], root);
    const sentinel = await tempDir();
    const control = await watchRoots([sentinel], sentinel);
    const before = watching.calls();
    // Events come in the order they happened: once the control hears the last change, the
    // watcher under test has had every earlier one.
    await control.change(async () => {
      await writeFile(join(root, "alpha/notes.txt"), "two");
      await mkdir(join(root, "node_modules"));
      await mkdir(join(root, "alpha/.git"));
      await writeSkillFile(sentinel, "beta", skillMd("beta"));
    });
    expect(watching.calls()).toBe(before);
  });

  it("picks up an optional root created after the watch began, one folder at a time", async () => {
    const base = await tempDir();
    const watching = await watchRoots([{ path: ".claude/skills", optional: true }], base);
    expect(await names(watching)).toEqual([]);
    await watching.change(() => mkdir(join(base, ".claude")));
    await watching.change(() => writeSkillFile(join(base, ".claude/skills"), "later", skillMd("later")));
    expect(await names(watching)).toEqual(["later"]);
  });

  it("stops: no more signals, and every inotify watch released", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    const baseline = watchesNow();
    const watching = await watchRoots([root], root);
    await settle(baseline, 2);
    watching.stop();
    const before = watching.calls();
    await settle(baseline, 0);
    const control = await watchRoots([root], root);
    // Events reach every watcher of the process at once: when the control hears this, a watcher
    // still open would have too.
    await control.change(() => writeSkillFile(root, "beta", skillMd("beta")));
    await control.change(() => writeFile(join(root, "alpha/SKILL.md"), skillMd("alpha", "Edited.")));
    expect(watching.calls()).toBe(before);
    control.stop();
    await settle(baseline, 0);
  });

  it("does nothing with watch: false", async () => {
    const root = await tempDir();
    const baseline = watchesNow();
    const { sources } = await setupFs({ roots: [root], watch: false }, root);
    let calls = 0;
    const stop = sources[0]!.watch!(() => calls++);
    const control = await watchRoots([root], root);
    await control.change(() => writeSkillFile(root, "alpha", skillMd("alpha")));
    control.stop();
    stop();
    expect(calls).toBe(0);
    await settle(baseline, 0);
  });
});

describe("polling instead of watching", () => {
  it("detects a skill edited, added and removed with maxWatchedDirectories: 0, holding no watch", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const baseline = watchesNow();
    const watching = await watchRoots([root], root, { maxWatchedDirectories: 0, pollIntervalMs: 100 });
    // The root, alpha/ and alpha/SKILL.md, whose in-place edit leaves its folder's mtime alone.
    expect(
      watching.logs.some((line) => line.includes("polling 3 paths every 100 ms (maxWatchedDirectories is 0)")),
    ).toBe(true);

    await watching.change(() => writeFile(file, skillMd("alpha", "After.")));
    expect((await watching.load()).skills.map((skill) => skill.description)).toEqual(["After."]);
    await watching.change(() => writeSkillFile(root, "team/beta", skillMd("beta")));
    expect(await names(watching)).toEqual(["alpha", "beta"]);
    await watching.change(() => rm(join(root, "alpha"), { recursive: true }));
    expect(await names(watching)).toEqual(["beta"]);
    expect(watchesNow()).toBe(baseline);
  });

  it("watches the first folders and polls the rest past the cap", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const baseline = watchesNow();
    const watching = await watchRoots([root], root, { maxWatchedDirectories: 1, pollIntervalMs: 100 });
    await settle(baseline, 1);
    expect(watching.logs.some((line) => line.includes("watching 1 folders for changes, polling 2 paths"))).toBe(true);
    await watching.change(() => writeFile(file, skillMd("alpha", "After, and longer.")));
    expect((await watching.load()).skills.map((skill) => skill.description)).toEqual(["After, and longer."]);
  });

  it("stops polling when stopped", async () => {
    const root = await tempDir();
    const options = { maxWatchedDirectories: 0, pollIntervalMs: 100 };
    const watching = await watchRoots([root], root, options);
    watching.stop();
    const before = watching.calls();
    const control = await watchRoots([root], root, options);
    // Two changes the control hears one after the other: at least a full interval has passed.
    await control.change(() => writeSkillFile(root, "alpha", skillMd("alpha")));
    await control.change(() => writeSkillFile(root, "beta", skillMd("beta")));
    expect(watching.calls()).toBe(before);
  });
});

describe("through the catalog", () => {
  it("reports a skill added under a watched root as added", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    const kernel = await createKernel({
      config: { plugins: [["fs", { roots: [root] }]] },
      baseDir: root,
      logger: createLogger("silent"),
    });
    const changes: CatalogChange[] = [];
    kernel.catalog.onChange((change) => changes.push(change));
    await kernel.catalog.ready();
    const lifetime = new AbortController();
    const stop = kernel.catalog.watch(lifetime.signal);
    try {
      await writeSkillFile(root, "beta", skillMd("beta"));
      await waitFor(
        () => changes.some((change) => change.added.some((skill) => skill.name === "beta")),
        "beta in a change",
      );
      expect(kernel.catalog.list().map((skill) => skill.id)).toEqual(["alpha", "beta"]);
    } finally {
      stop();
      lifetime.abort();
      await kernel.close();
    }
  });
});
