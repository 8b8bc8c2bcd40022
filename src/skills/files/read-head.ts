import { Buffer } from "node:buffer";
import { open, readlink, realpath, stat } from "node:fs/promises";
import { assertRegular, OPEN_REGULAR_FLAGS } from "../../lib/regular-file.js";
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
 * opened must lie inside that folder (a real path).
 */
export async function readHead(path: string, maxBytes: number, within?: string): Promise<Head> {
  // stat first so a FIFO is refused without ever being opened ...
  assertRegular(path, await stat(path));
  const handle = await open(path, OPEN_REGULAR_FLAGS);
  try {
    // ... and fstat the handle we got, which closes the window between that stat and the open.
    const stats = await handle.stat();
    assertRegular(path, stats);
    if (within !== undefined) await assertOpenedWithin(handle.fd, path, within);
    // Sized from fstat so hundreds of small files do not each allocate the full limit.
    const buffer = Buffer.alloc(Math.min(maxBytes, stats.size));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return {
      bytes: buffer.subarray(0, filled),
      truncated: stats.size > filled,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
    };
  } finally {
    await handle.close();
  }
}

/**
 * The caller checked the real path before opening, but a folder on the way could have been
 * swapped for a symlink since. Linux names the file a descriptor really opened; where that is
 * not available, the path is resolved once more, which narrows the window to the open itself.
 */
async function assertOpenedWithin(fd: number, path: string, dir: string): Promise<void> {
  const opened = await readlink(`/proc/self/fd/${fd}`).catch(() => realpath(path));
  if (!isServedFrom(opened, dir)) throw new OutsideFolderError(path);
}
