import { createHash, randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FolderBound } from "../../../cache/folder-bound.js";

/** A summary file larger than this is none this store wrote (its text is at most 100,000 characters). */
const MAX_FILE_BYTES = 1024 * 1024;
/** The folder's bound: one small file per config a machine serves. */
const MAX_FOLDER_BYTES = 16 * 1024 * 1024;

/**
 * The summary each run made, kept in the user's cache folder for the next start over the same
 * sources: a warm start names the skills at once, while its sources still load. Each file is named
 * after its key and holds it, so a file copied under another key's name, or written by another
 * release or for other sources, is a miss.
 */
export interface RememberedSummaries {
  /** The text kept under `key`, if any. Synchronous and small: it is read at start. */
  recall(key: string): string | undefined;
  /** Keeps `text` under `key` (written aside, then renamed); never throws. */
  keep(key: string, text: string): Promise<void>;
}

export function rememberedSummaries(dir: string): RememberedSummaries {
  const bound = new FolderBound(dir, MAX_FOLDER_BYTES);
  const fileOf = (key: string) => join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 40)}.json`);
  return {
    recall(key) {
      try {
        const file = fileOf(key);
        const stats = statSync(file);
        // A FIFO planted here would block the read for good.
        if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return undefined;
        // Read back from disk: untrusted until its shape and key are checked.
        const kept: unknown = JSON.parse(readFileSync(file, "utf8"));
        if (typeof kept !== "object" || kept === null) return undefined;
        const { key: keptKey, text } = kept as { key?: unknown; text?: unknown };
        return keptKey === key && typeof text === "string" ? text : undefined;
      } catch {
        return undefined;
      }
    },
    async keep(key, text) {
      const file = fileOf(key);
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const body = JSON.stringify({ key, text });
        await writeFile(temporary, body, { mode: 0o600 });
        await rename(temporary, file);
        await bound.written(Buffer.byteLength(body));
      } catch {
        await rm(temporary, { force: true }).catch(() => {});
      }
    },
  };
}
