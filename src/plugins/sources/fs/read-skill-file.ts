import type { Buffer } from "node:buffer";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from "node:fs";
import { describeKind, NotRegularFileError } from "../../../lib/regular-file.js";
import { OutsideFolderError } from "../../../skills/files/read-head.js";
import { isServedFrom } from "../../../skills/files/served-path.js";
import { sameTime } from "./same-time.js";
import type { SkillFolder } from "./scan.js";

/**
 * What identifies one version of a SKILL.md: the same file (device and inode), not written to
 * (size, mtime) and not renamed, relinked or chmod'ed (ctime) since. A parse result stored under
 * an identity can be reused for as long as the file still has it.
 */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

export interface SkillFileHead {
  readonly text: string;
  /** True when the file holds more than `text`. */
  readonly truncated: boolean;
  /** Of the file read; a listed symlink's target. */
  readonly identity: FileIdentity;
}

// O_NONBLOCK: opening a FIFO that replaced the file since the scan returns at once instead of
// waiting for a writer. O_NOFOLLOW: a SKILL.md that became a symlink since the scan fails to open
// (ELOOP) rather than leading anywhere. Windows has neither flag, nor FIFOs.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Reads the head of a skill folder's SKILL.md, at most `maxBytes`, with synchronous calls: the
 * loader reads thousands of small files from the page cache, where each asynchronous call costs
 * far more than the read itself. The loader runs it in short slices (see source.ts), so the
 * event loop is never held long.
 *
 * The scan's directory entry says what the file was. A regular file is opened without following
 * a link (open, fstat, readlink, read, close: five calls); a symlink is resolved first and must
 * lead to a file inside the skill folder; anything else (a FIFO, a device, a folder) is refused
 * without being opened. After the open, fstat and the descriptor's real path catch a file or a
 * folder on the way swapped since the scan. `scratch` is a buffer of at least maxBytes, reused
 * from one file to the next, so reading allocates nothing but the text.
 */
export function readSkillFileSync(folder: SkillFolder, limits: HeadLimits, scratch: Buffer): SkillFileHead {
  if (folder.fileKind === "file") {
    try {
      return readOpened(openSync(folder.file, OPEN_FLAGS | NO_FOLLOW), folder, limits, scratch);
    } catch (error) {
      // Replaced by a symlink since the scan: take the symlink's way.
      if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
    }
  } else if (folder.fileKind !== "link") {
    throw new NotRegularFileError(folder.file, folder.fileKind.notFile);
  }
  // A SKILL.md may be a symlink, but only to a file within its own skill folder: otherwise any
  // file the server can read (~/.ssh/config) could be served as a skill.
  const target = realpathSync(folder.file);
  if (!isServedFrom(target, folder.dir)) throw new OutsideFolderError(folder.file);
  return readOpened(openSync(target, OPEN_FLAGS | NO_FOLLOW), folder, limits, scratch);
}

export interface HeadLimits {
  /** The most bytes read. */
  readonly maxBytes: number;
  /** Read first; more only when `isEnough` says this head is not. */
  readonly firstBytes: number;
  /** Of a longer first read, decoded first; all of it only when `isEnough` says this head is not. */
  readonly firstDecodedBytes: number;
  /** Whether the head read so far holds all that is needed of a longer file. */
  readonly isEnough: (head: string) => boolean;
}

function readOpened(fd: number, folder: SkillFolder, limits: HeadLimits, scratch: Buffer): SkillFileHead {
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(folder.file, describeKind(stats));
    assertOpenedWithin(fd, folder);
    const wanted = Math.min(limits.maxBytes, stats.size);
    // Most of a SKILL.md is body nobody loads: decoding only its head saves most of the work.
    let filled = fill(fd, scratch, 0, Math.min(limits.firstBytes, wanted));
    // A decoded head is garbage once parsed, of up to two bytes a character: a shorter one, when
    // it holds all that is needed, is less to decode and to collect.
    if (filled > limits.firstDecodedBytes) {
      const head = scratch.toString("utf8", 0, limits.firstDecodedBytes);
      if (limits.isEnough(head)) return { text: head, truncated: true, identity: identityOf(stats) };
    }
    let text = scratch.toString("utf8", 0, filled);
    if (filled < wanted && filled === limits.firstBytes && !limits.isEnough(text)) {
      filled = fill(fd, scratch, filled, wanted);
      text = scratch.toString("utf8", 0, filled);
    }
    return { text, truncated: stats.size > filled, identity: identityOf(stats) };
  } finally {
    closeSync(fd);
  }
}

/** Reads into `buffer` from `from` up to `to` (file offsets and buffer offsets alike); returns where it stopped. */
function fill(fd: number, buffer: Buffer, from: number, to: number): number {
  let filled = from;
  while (filled < to) {
    const read = readSync(fd, buffer, filled, to - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

/**
 * A folder on the way could have been swapped for a symlink since the scan. Linux names the file
 * a descriptor really opened; elsewhere the path is resolved once more, which narrows the window
 * to the open itself.
 */
function assertOpenedWithin(fd: number, folder: SkillFolder): void {
  let opened: string;
  try {
    opened = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    opened = realpathSync(folder.file);
  }
  // The file listed, opened where it was listed (the usual case), lies inside its folder.
  if (opened !== folder.file && !isServedFrom(opened, folder.dir)) throw new OutsideFolderError(folder.file);
}

/**
 * The identity of a listed regular SKILL.md as it is now (one lstat, never following a link), or
 * undefined when it is not a regular file any more: what decides whether an earlier parse still holds.
 */
export function currentIdentity(folder: SkillFolder): FileIdentity | undefined {
  if (folder.fileKind !== "file") return undefined;
  try {
    const stats = lstatSync(folder.file);
    return stats.isFile() ? identityOf(stats) : undefined;
  } catch {
    return undefined;
  }
}

/** The identity of what a listed symlinked SKILL.md leads to now, or undefined when nothing. */
export function targetIdentity(folder: SkillFolder): FileIdentity | undefined {
  try {
    const stats = statSync(folder.file);
    return stats.isFile() ? identityOf(stats) : undefined;
  } catch {
    return undefined;
  }
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    sameTime(a.mtimeMs, b.mtimeMs) &&
    sameTime(a.ctimeMs, b.ctimeMs)
  );
}

function identityOf(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}
