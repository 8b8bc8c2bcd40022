import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** A temporary file younger than this may be another process's write under way: never trimmed. */
const TEMPORARY_GRACE_MS = 60_000;

/**
 * Keeps a cache folder within a number of bytes, for files written by any number of processes:
 * past the bound, the files written longest ago are deleted. The folder is looked at on a
 * process's first write and again after each eighth of the bound written, not on every write.
 */
export class FolderBound {
  #writtenSinceTrim = Number.POSITIVE_INFINITY;
  #trimming: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** Says `bytes` were written to the folder; resolves once any trim this started is done. */
  async written(bytes: number): Promise<void> {
    this.#writtenSinceTrim += bytes;
    if (this.#trimming || this.#writtenSinceTrim < this.maxBytes / 8) return;
    this.#writtenSinceTrim = 0;
    this.#trimming = this.#trim().finally(() => (this.#trimming = undefined));
    await this.#trimming;
  }

  async #trim(): Promise<void> {
    const now = Date.now();
    const files: { path: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(this.dir).catch(() => [])) {
      const path = join(this.dir, name);
      // Another process may delete or replace it meanwhile: gone is as good as trimmed.
      const stats = await stat(path).catch(() => undefined);
      if (!stats?.isFile()) continue;
      if (name.endsWith(".tmp") && now - stats.mtimeMs < TEMPORARY_GRACE_MS) continue;
      files.push({ path, size: stats.size, mtimeMs: stats.mtimeMs });
    }
    let total = files.reduce((sum, file) => sum + file.size, 0);
    files.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const file of files) {
      if (total <= this.maxBytes) break;
      await rm(file.path, { force: true }).catch(() => {});
      total -= file.size;
    }
  }
}
