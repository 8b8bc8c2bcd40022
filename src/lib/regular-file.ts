import type { Buffer } from "node:buffer";
import { constants, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";

/** The file is a FIFO, device, socket or folder: reading it could block forever or never end. */
export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is not a regular file but ${kind}`);
    this.name = "NotRegularFileError";
  }
}

// O_NONBLOCK makes open() return at once even if a FIFO replaced the file after our stat, where a
// plain open would wait for a writer forever. Windows has no such flag and no FIFOs to fear.
export const OPEN_REGULAR_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a file for reading only if it is a regular file. A FIFO named as a config, lock, archive
 * or secret would otherwise hold the open (and a thread of the I/O pool) until a writer comes;
 * a device would never end. stat first so such a file is never opened, then fstat the handle,
 * which closes the window between the two.
 */
export async function openRegular(path: string): Promise<FileHandle> {
  assertRegular(path, await stat(path));
  const handle = await open(path, OPEN_REGULAR_FLAGS);
  try {
    assertRegular(path, await handle.stat());
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole of a regular file (openRegular's rule), as text or bytes. */
export async function readRegularFile(path: string, encoding: "utf8"): Promise<string>;
export async function readRegularFile(path: string): Promise<Buffer>;
export async function readRegularFile(path: string, encoding?: "utf8"): Promise<string | Buffer> {
  const handle = await openRegular(path);
  try {
    return encoding ? await handle.readFile(encoding) : await handle.readFile();
  } finally {
    await handle.close();
  }
}

export function assertRegular(path: string, stats: Stats): void {
  if (!stats.isFile()) throw new NotRegularFileError(path, describeKind(stats));
}

/** What a non-regular file is, for messages; Stats and Dirent both answer. */
export function describeKind(
  stats: Pick<Stats, "isFIFO" | "isDirectory" | "isSocket" | "isCharacterDevice" | "isBlockDevice">,
): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isDirectory()) return "a folder";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "something else";
}
