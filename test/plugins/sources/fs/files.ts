import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { CacheEngine } from "../../../../src/cache/engine.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { createSnapshotStore, type SnapshotTuning } from "../../../../src/plugins/sources/fs/snapshot-store.js";
import { createFsSource } from "../../../../src/plugins/sources/fs/source.js";

const created: string[] = [];

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder in the OS temp dir, removed after the current test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skills-kernel-fs-"));
  created.push(dir);
  return dir;
}

/** Writes `<root>/<folder>/<file>`, creating folders on the way. */
export async function writeSkillFile(
  root: string,
  folder: string,
  content: string,
  file = "SKILL.md",
): Promise<string> {
  await mkdir(join(root, folder), { recursive: true });
  const path = join(root, folder, file);
  await writeFile(path, content);
  return path;
}

/** A minimal valid SKILL.md whose name matches its folder. */
export function skillMd(name: string, description = `The ${name} skill.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
}

export const SNAPSHOT_LIMITS = { maxFrontmatterBytes: 65_536, maxSkillFileBytes: 262_144 };

/** An fs source over `root` keeping snapshots in `cache`, as one process would make it, with the debug lines it logs. */
export function snapshottedSource(root: string, cache: CacheEngine, tuning?: SnapshotTuning) {
  const logs: string[] = [];
  const logger = createLogger("debug", (line) => logs.push(line), "fs");
  const snapshots = createSnapshotStore(cache.view("fs"), SNAPSHOT_LIMITS, logger, { tuning });
  const source = createFsSource({
    name: "test",
    roots: [root],
    maxDepth: 6,
    maxDirectories: 1_000,
    ...SNAPSHOT_LIMITS,
    watch: false,
    maxWatchedDirectories: 0,
    pollIntervalMs: 1_000,
    logger,
    snapshots,
  });
  return { source, logs, snapshots };
}

/** Every file and folder under `root`, and the root, older than the racy window, as on a disk they usually are. */
export async function age(root: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
    await utimes(join(entry.parentPath, entry.name), past, past);
  await utimes(root, past, past);
}
