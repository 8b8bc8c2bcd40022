import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import { errorMessage, UserError } from "../kernel/errors.js";

/**
 * Runs `change` while holding `<file>.lock`, so two commands changing one lock (two `add`s in one
 * project) take turns instead of one losing the other's entry. proper-lockfile's lock is a folder
 * made with mkdir (atomic on every filesystem, NFS included), refreshed while held, and taken over
 * once stale, so a killed command never blocks the next one for long.
 */
export async function withLockFile<T>(file: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: 20_000,
      update: 5_000,
      retries: { retries: 200, factor: 1.3, minTimeout: 20, maxTimeout: 500 },
    });
  } catch (error) {
    throw new UserError(
      `cannot take ${file}.lock (another skills-kernel is changing ${file}?): ${errorMessage(error)}`,
      1,
    );
  }
  try {
    return await change();
  } finally {
    await release().catch(() => undefined);
  }
}
