import type { Buffer } from "node:buffer";
import {
  close,
  closeSync,
  type Dir,
  type Dirent,
  fstat,
  fstatSync,
  lstatSync,
  open,
  opendirSync,
  openSync,
  read,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { lstat, opendir, readlink, realpath, stat } from "node:fs/promises";
import { promisify } from "node:util";

/**
 * The file system calls that reading a skill's files makes, each answering a promise. The checks
 * around them are the same whichever calls they are: only how each call waits differs.
 */
export interface FileCalls {
  readonly lstat: (path: string) => Promise<Stats>;
  readonly stat: (path: string) => Promise<Stats>;
  /** The real path, resolved by the system (realpath(3)). */
  readonly realpath: (path: string) => Promise<string>;
  readonly readlink: (path: string) => Promise<string>;
  /** A descriptor. */
  readonly open: (path: string, flags: number) => Promise<number>;
  readonly fstat: (fd: number) => Promise<Stats>;
  /** Bytes read into `buffer` at `offset`, from the file's `position`. */
  readonly read: (fd: number, buffer: Buffer, offset: number, length: number, position: number) => Promise<number>;
  readonly close: (fd: number) => Promise<void>;
  /**
   * A folder's entries, read from the system a few at a time, never the whole folder at once: a
   * loop over them may stop early, which closes the folder (as reading to the end does).
   */
  readonly entries: (path: string) => Promise<AsyncIterable<Dirent> | Iterable<Dirent>>;
}

const openAsync = promisify(open);
const readAsync = promisify(read);

/** fs/promises' calls, each waiting in the thread pool: for a kernel that serves while it reads. */
export const ASYNC_CALLS: FileCalls = {
  lstat: (path) => lstat(path),
  stat: (path) => stat(path),
  realpath: (path) => realpath(path),
  readlink: (path) => readlink(path),
  open: (path, flags) => openAsync(path, flags),
  fstat: promisify(fstat),
  read: (fd, buffer, offset, length, position) =>
    readAsync(fd, buffer, offset, length, position).then(({ bytesRead }) => bytesRead),
  close: promisify(close),
  entries: (path) => opendir(path),
};

/**
 * The synchronous calls, answering promises already settled: for a kernel that serves nothing
 * (PluginRuntimeContext.inProcessOnly), which no blocked call keeps from an answer, and where each
 * hand-off to the thread pool and back costs more than a call on the page cache itself.
 */
export const BLOCKING_CALLS: FileCalls = {
  lstat: settled((path) => lstatSync(path)),
  stat: settled((path) => statSync(path)),
  realpath: settled((path) => realpathSync.native(path)),
  readlink: settled((path) => readlinkSync(path)),
  open: settled((path, flags) => openSync(path, flags)),
  fstat: settled((fd) => fstatSync(fd)),
  read: settled((fd, buffer, offset, length, position) => readSync(fd, buffer, offset, length, position)),
  close: settled((fd) => closeSync(fd)),
  entries: settled((path) => entriesOf(opendirSync(path))),
};

/** A synchronous call as one answering a promise: its result, or what it threw, settled. */
function settled<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(call(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** An open folder's entries, read as a Dir reads them (a few at a time); closed at the end or when the loop stops. */
function* entriesOf(dir: Dir): Generator<Dirent> {
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) yield entry;
  } finally {
    dir.closeSync();
  }
}
