import { createHash } from "node:crypto";
import { lstat, readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { readRegularFile } from "../lib/regular-file.js";

/** An installed folder's files: POSIX path to `sha256:{hex}`, the Skills extension's digest format. */
export type FileDigests = Record<string, string>;

export interface FolderDigest {
  readonly files: FileDigests;
  /** npx skills' folder digest (its local lock's `computedHash`), so each tool sees the other's installs as current. */
  readonly computedHash: string;
}

/** Folders never part of an installed skill's content, as npx skills skips them too. */
const SKIPPED = new Set([".git", "node_modules"]);

/** Digests every regular file under `folder` (through a link to it, never through links inside). */
export async function digestFolder(folder: string): Promise<FolderDigest> {
  const root = await realpath(folder);
  const found: { path: string; bytes: Buffer }[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await walk(join(dir, entry.name), path);
      } else if (entry.isFile()) {
        found.push({ path, bytes: await readRegularFile(join(dir, entry.name)) });
      }
    }
  };
  await walk(root, "");
  const files: FileDigests = {};
  for (const file of found) files[file.path] = `sha256:${createHash("sha256").update(file.bytes).digest("hex")}`;
  // npx skills hashes each path then its bytes, in localeCompare order of the paths.
  const whole = createHash("sha256");
  for (const file of [...found].sort((a, b) => a.path.localeCompare(b.path)))
    whole.update(file.path).update(file.bytes);
  return { files, computedHash: whole.digest("hex") };
}

/** The files that differ between what was installed and what is there now, sorted. */
export function differingFiles(locked: FileDigests, now: FileDigests): string[] {
  const paths = new Set([...Object.keys(locked), ...Object.keys(now)]);
  return [...paths].filter((path) => locked[path] !== now[path]).sort();
}

/** Whether a path exists, without following a final link. */
export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
