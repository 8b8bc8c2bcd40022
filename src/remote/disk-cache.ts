import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Cache, JsonValue } from "../kernel/cache.js";
import { systemClock, type Clock } from "../kernel/clock.js";

/** How long an entry lives when the caller gives no TTL. */
const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The cache remote sources use when no cache plugin is configured: one JSON file per key under
 * the user's cache folder, so a one-shot command (`skills-kernel list`) or the next start still
 * answers from what an earlier run fetched. Like every Cache, it never throws: an unreadable
 * entry is a miss, a failed write is dropped. `clock` dates the entries.
 */
export function createDiskCache(dir: string, namespace: string, clock: Pick<Clock, "now"> = systemClock): Cache {
  const fileOf = (key: string) => join(dir, createHash("sha256").update(`${namespace}\0${key}`).digest("hex").slice(0, 40) + ".json");
  return {
    namespace,
    async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
      try {
        const entry = JSON.parse(await readFile(fileOf(key), "utf8")) as { key: string; expires: number; value: T };
        return entry.key === key && entry.expires > clock.now() ? entry.value : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlMs = DEFAULT_TTL_MS) {
      const file = fileOf(key);
      // Written aside and renamed: a reader never sees half an entry, nor a concurrent writer's mix.
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(temporary, JSON.stringify({ key, expires: clock.now() + ttlMs, value }));
        await rename(temporary, file);
      } catch {
        await rm(temporary, { force: true }).catch(() => {});
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true }).catch(() => {});
    },
    scope: (name) => createDiskCache(dir, `${namespace}/${name}`, clock),
  };
}
