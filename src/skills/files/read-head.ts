import { Buffer } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readlinkSync, type Stats } from "node:fs";
import { assertRegular, OPEN_REGULAR_FLAGS } from "../../lib/regular-file.js";
import { ASYNC_CALLS, type FileCalls } from "./file-calls.js";
import { isServedFrom } from "./served-path.js";

/** The file opened turned out to lie outside the folder it had to stay in. */
export class OutsideFolderError extends Error {
  constructor(readonly path: string) {
    super(`${path} leads outside its folder`);
    this.name = "OutsideFolderError";
  }
}

export interface Head {
  /** The first bytes of the file, at most the requested number. */
  readonly bytes: Buffer;
  /** True when the file holds more than `bytes`. */
  readonly truncated: boolean;
  /** The whole file's size. */
  readonly size: number;
  /** Of the file opened (fstat), so it dates exactly the bytes read. */
  readonly mtimeMs: number;
}

/**
 * Reads at most `maxBytes` from the start of a regular file. A skill's metadata sits at the top of
 * SKILL.md, so a 50 MB file costs no more than a small one. With `within`, the file actually
 * opened must lie inside that folder (a real path). `calls`: how each call waits (see FileCalls).
 */
export async function readHead(
  path: string,
  maxBytes: number,
  within?: string,
  calls: FileCalls = ASYNC_CALLS,
): Promise<Head> {
  // stat first so a FIFO is refused without ever being opened ...
  assertRegular(path, await calls.stat(path));
  const fd = await calls.open(path, OPEN_REGULAR_FLAGS);
  try {
    // ... and fstat the descriptor we got, which closes the window between that stat and the open.
    const stats = await calls.fstat(fd);
    assertRegular(path, stats);
    if (within !== undefined) await assertOpenedWithin(calls, fd, path, within);
    return await readOpened(calls, fd, stats, maxBytes);
  } finally {
    await calls.close(fd);
  }
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// Only Linux names a descriptor's file (/proc/self/fd); elsewhere readHeadInPlace answers
// undefined at once instead of opening each file twice.
const DESCRIPTOR_PATHS = NO_FOLLOW !== 0 && process.platform === "linux";

/**
 * readHead of a regular file at `path` itself, in fewer calls than resolving the path first
 * (lstat, open without following a link, fstat, readlink): the descriptor opened must name
 * `path` exactly, so no link lies anywhere on the way and the file is inside `within` (a real
 * path) by its path alone. Undefined when it is anything else (a link, a FIFO, a folder on the
 * way swapped for a link) or the system cannot name a descriptor's file: the full checks answer
 * then. lstat first, so a FIFO or a device is never opened.
 *
 * Only the lstat and the read are `calls`' (see FileCalls): the lstat has brought the path's
 * entries and the file's inode into memory, so the open, the fstat, the descriptor's name (/proc)
 * and the close wait on no disk, and each asynchronous call costs far more than such a call itself.
 */
export async function readHeadInPlace(
  path: string,
  maxBytes: number,
  within: string,
  calls: FileCalls = ASYNC_CALLS,
): Promise<Head | undefined> {
  if (!DESCRIPTOR_PATHS || !isServedFrom(path, within)) return undefined;
  const found = await calls.lstat(path).catch(() => undefined);
  if (!found?.isFile()) return undefined;
  let fd: number;
  try {
    fd = openSync(path, OPEN_REGULAR_FLAGS | NO_FOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.ino !== found.ino || stats.dev !== found.dev) return undefined;
    return namesExactly(fd, path) ? await readOpened(calls, fd, stats, maxBytes) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether the descriptor's file is `path` itself. */
function namesExactly(fd: number, path: string): boolean {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === path;
  } catch {
    return false;
  }
}

/** At most `maxBytes` from the start of the regular file open at `fd`, whose fstat is `stats`. */
async function readOpened(calls: FileCalls, fd: number, stats: Stats, maxBytes: number): Promise<Head> {
  // Sized from fstat so hundreds of small files do not each allocate the full limit.
  const buffer = Buffer.alloc(Math.min(maxBytes, stats.size));
  let filled = 0;
  while (filled < buffer.length) {
    const bytesRead = await calls.read(fd, buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return {
    bytes: buffer.subarray(0, filled),
    truncated: stats.size > filled,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
  };
}

/**
 * The caller checked the real path before opening, but a folder on the way could have been
 * swapped for a symlink since. Linux names the file a descriptor really opened; where that is
 * not available, the path is resolved once more, which narrows the window to the open itself.
 */
async function assertOpenedWithin(calls: FileCalls, fd: number, path: string, dir: string): Promise<void> {
  const opened = await calls.readlink(`/proc/self/fd/${fd}`).catch(() => calls.realpath(path));
  if (!isServedFrom(opened, dir)) throw new OutsideFolderError(path);
}
