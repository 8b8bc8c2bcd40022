import type { Stats } from "node:fs";
import { sameTime } from "./same-time.js";
import type { SkillFileKind } from "./scan.js";

/**
 * What a folder's listing depends on: the same folder (device and inode) with no entry added,
 * removed or renamed since (mtime), nor the folder itself renamed or chmod'ed (ctime).
 */
export interface FolderIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** What the scan takes from one folder's entries: its skill file, and where to walk on. */
export interface FolderListing {
  /** The SKILL.md (or skill.md) entry, if the folder has one. */
  readonly skillFile?: { readonly name: string; readonly kind: SkillFileKind };
  /** Sub-folders and symlinks the walk may descend, sorted by name. */
  readonly children: readonly string[];
  /** Indexes into `children` of the symlinks (each checked on every scan: its target may change). */
  readonly links: readonly number[];
}

/**
 * Listings of an earlier scan, so that a folder whose identity has not changed is not listed
 * again (one lstat instead of a readdir), and the listings of this scan, for the next one.
 */
export interface KnownFolders {
  /** The earlier listing of the folder at `rel`, if it still holds for `identity`. */
  listingOf(rel: string, identity: FolderIdentity): FolderListing | undefined;
  /** The folder at `rel` had `identity` when it was listed (or its earlier listing taken). */
  listed(rel: string, identity: FolderIdentity, listing: FolderListing): void;
}

export function folderIdentity(stats: Stats): FolderIdentity {
  return { dev: stats.dev, ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

export function sameFolderIdentity(a: FolderIdentity, b: FolderIdentity): boolean {
  return a.ino === b.ino && sameTime(a.mtimeMs, b.mtimeMs) && sameTime(a.ctimeMs, b.ctimeMs) && a.dev === b.dev;
}
