import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/** How often the folder a git command writes into is measured. */
const CHECK_EVERY_MS = 200;

/** The folder grew past its cap while git wrote into it. */
export class OverByteCapError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the checkout is larger than maxTotalBytes (${maxBytes} bytes)`);
    this.name = "OverByteCapError";
  }
}

/**
 * Runs `work` (git commands writing into `dir`) with a signal aborted once `dir` holds more than
 * `maxBytes`, measured as it grows: git has no byte limit of its own, and a small repository can
 * expand to any size on disk (a compressed gigabyte of zeros). Rejects with OverByteCapError then.
 */
export async function withByteCap<T>(
  dir: string,
  maxBytes: number,
  signal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const over = new AbortController();
  /** The measurement under way: a tick never starts a second one. */
  let measuring: Promise<void> | undefined;
  const measure = (): Promise<void> => {
    if (over.signal.aborted) return Promise.resolve();
    measuring ??= sizeOf(dir, maxBytes)
      .then((size) => {
        if (size > maxBytes) over.abort(new OverByteCapError(maxBytes));
      })
      .finally(() => {
        measuring = undefined;
      });
    return measuring;
  };
  const timer = setInterval(() => void measure(), CHECK_EVERY_MS);
  try {
    const result = await work(AbortSignal.any([signal, over.signal]));
    // A tick's measurement may have begun before git wrote its last files: let it end, then
    // measure what git left.
    await measuring;
    await measure();
    if (over.signal.aborted) throw over.signal.reason;
    return result;
  } catch (error) {
    throw over.signal.aborted ? over.signal.reason : error;
  } finally {
    clearInterval(timer);
  }
}

/** Bytes of the files under `dir` (links not followed), counting stops once past `limit`. */
async function sizeOf(dir: string, limit: number): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= limit) {
    const folder = pending.pop()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else
        total += await lstat(path).then(
          (stats) => stats.size,
          () => 0,
        );
      if (total > limit) break;
    }
  }
  return total;
}
