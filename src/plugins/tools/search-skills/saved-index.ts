import { Buffer } from "node:buffer";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FolderBound } from "../../../cache/folder-bound.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import { VERSION } from "../../../version.js";

/**
 * Search indexes kept in files under the user's cache folder, so that a start over the skills an
 * earlier run indexed loads that run's index instead of building it again. Each file is named
 * after its key and holds it: a file copied under another key's name, truncated, or written by
 * another release is a miss, and the ranker checks what it loads besides.
 */
export interface SavedIndexes {
  /** The bytes saved under `key`, or undefined. Synchronous: it stands in for a synchronous build. */
  load(key: string): Uint8Array | undefined;
  /** Saves `bytes` under `key` (written aside, then renamed); never throws. */
  save(key: string, bytes: Uint8Array): Promise<void>;
}

/** Starts every file: a file that does not is no saved index. */
const MAGIC = Buffer.from("skills-kernel index\n");

export function createSavedIndexes(dir: string, maxBytes: number): SavedIndexes {
  const bound = new FolderBound(dir, maxBytes);
  const fileOf = (key: string) => join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 40)}.index`);
  return {
    load(key) {
      let bytes: Buffer;
      try {
        const file = fileOf(key);
        // A file larger than the folder may hold, or a FIFO, is none this store wrote: not read at all.
        const stats = statSync(file);
        if (!stats.isFile() || stats.size > maxBytes) return undefined;
        bytes = readFileSync(file);
      } catch {
        return undefined;
      }
      const expected = header(key);
      if (bytes.length < expected.length || !bytes.subarray(0, expected.length).equals(expected)) return undefined;
      return bytes.subarray(expected.length);
    },
    async save(key, bytes) {
      const file = fileOf(key);
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const head = header(key);
        await writeFile(temporary, Buffer.concat([head, bytes]));
        await rename(temporary, file);
        await bound.written(head.length + bytes.length);
      } catch {
        await rm(temporary, { force: true }).catch(() => {});
      }
    },
  };
}

function header(key: string): Buffer {
  const keyBytes = Buffer.from(key, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(keyBytes.length);
  return Buffer.concat([MAGIC, length, keyBytes]);
}

/**
 * What a saved index is kept under: the ranker, the release (which fixes how it analyses text) and
 * a digest of everything of each skill a ranker may read, in catalog order (document numbers
 * follow it). Any skill changed, added, removed or moved gives another key, so a saved index is
 * only ever loaded for the very skills it was built from.
 */
export function savedIndexKey(rankerName: string, skills: readonly CatalogSkill[]): string {
  const hash = createHash("sha256");
  for (const skill of skills) {
    hash.update(
      `${skill.qualifiedId}\0${skill.source}\0${skill.id}\0${skill.name}\0${skill.path}\0${skill.description}\0${skill.excerpt}\0`,
    );
    hash.update(`${JSON.stringify(skill.frontmatter)}\u0001`);
  }
  return `${rankerName}@${VERSION}:${skills.length}:${hash.digest("hex")}`;
}
