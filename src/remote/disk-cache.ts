import { createHash, randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FolderBound } from "../cache/folder-bound.js";
import type { Cache, JsonValue } from "../kernel/cache.js";
import { systemClock, type Clock } from "../kernel/clock.js";
import { openRegular } from "../lib/regular-file.js";

/** How long an entry lives when the caller gives no TTL. */
const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface DiskCacheOptions {
  /** The most bytes the folder's entries take together: past it, those written longest ago go (FolderBound). */
  readonly maxBytes?: number;
  /** What dates the entries. */
  readonly clock?: Pick<Clock, "now">;
}

/**
 * A cache in a folder: one JSON file per key under the user's cache folder, so a one-shot command
 * (`skills-kernel list`) or the next start still answers from what an earlier run stored. Like
 * every Cache, it never throws: an unreadable entry (truncated, another key's, expired) is a miss,
 * a failed write is dropped. Writes land whole (written aside, then renamed), so several processes
 * may share the folder.
 */
export function createDiskCache(dir: string, namespace: string, options: DiskCacheOptions = {}): Cache {
  return diskCache(
    dir,
    namespace,
    options.maxBytes === undefined ? undefined : new FolderBound(dir, options.maxBytes),
    options.clock ?? systemClock,
  );
}

function diskCache(dir: string, namespace: string, bound: FolderBound | undefined, clock: Pick<Clock, "now">): Cache {
  const fileOf = (key: string) =>
    join(dir, createHash("sha256").update(`${namespace}\0${key}`).digest("hex").slice(0, 40) + ".json");
  return {
    namespace,
    async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
      try {
        const entry = JSON.parse(await readEntry(fileOf(key), bound)) as { key: string; expires: number; value: T };
        // The key is stored beside the value: a file copied under another key's name is a miss.
        return entry.key === `${namespace}\0${key}` && entry.expires > clock.now() ? entry.value : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlMs = DEFAULT_TTL_MS) {
      const file = fileOf(key);
      // Written aside and renamed: a reader never sees half an entry, nor a concurrent writer's mix.
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const text = JSON.stringify({ key: `${namespace}\0${key}`, expires: clock.now() + ttlMs, value });
        await writeFile(temporary, text);
        await rename(temporary, file);
        await bound?.written(text.length);
      } catch {
        await rm(temporary, { force: true }).catch(() => {});
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true }).catch(() => {});
    },
    scope: (name) => diskCache(dir, `${namespace}/${name}`, bound, clock),
  };
}

/** An entry's text; a file larger than the folder's bound is no entry of this cache, and is not read. */
async function readEntry(file: string, bound: FolderBound | undefined): Promise<string> {
  const handle = await openRegular(file);
  try {
    if (bound && (await handle.stat()).size > bound.maxBytes)
      throw new Error(`${file} is larger than its folder may hold`);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
