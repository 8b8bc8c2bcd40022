import { randomBytes } from "node:crypto";
import { setImmediate } from "node:timers";
import type { Cache, JsonValue } from "../../kernel/cache.js";
import { errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import { VERSION } from "../../version.js";
import { recallRecords, type RecalledRoot, type SnapshotRecord } from "./snapshot.js";

/**
 * The fs source's roots kept in the shared cache (TOKENS.Cache), one snapshot per root (see
 * snapshot.ts), so that a restart over thousands of unchanged skills lists no folder and reads no
 * SKILL.md again: one lstat per folder and per skill file, and a few cache reads for the whole root.
 */
export interface SnapshotStore {
  /** What the snapshot stored for `root` holds, its skills stamped with `rank`; undefined when there is none. */
  recall(root: string, rank: number): Promise<RecalledRoot | undefined>;
  /**
   * Store `root`'s snapshot, the records `records` gives, in the background: after the load that
   * made it has answered, a little at a time. A later keep of the same root replaces one not yet
   * written.
   */
  keep(root: string, records: Iterable<SnapshotRecord>): void;
  /** Write whatever keep left waiting, at once (at shutdown). */
  flush(): Promise<void>;
}

export interface SnapshotLimits {
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
}

/**
 * The layout of stored snapshots: a change to the records or to how they are split changes it,
 * so an older layout is never read as this one (its keys are simply never asked for again).
 */
const SNAPSHOT_FORMAT = 1;
/**
 * A snapshot is split into entries of about this many characters of JSON, well under the cache's
 * default largest entry (1 MiB), so that no entry is refused.
 */
const CHUNK_CHARS = 256 * 1024;
/** A larger root is not kept (about 40,000 skills): a cache may forget, never hoard. */
const MAX_SNAPSHOT_CHARS = 128 * 1024 * 1024;
/** How long the background write works before letting the event loop run. */
const SLICE_MS = 2;
/**
 * Chunks asked for in one cache read (one MGET, about 2 MB): each read has its own deadline
 * (operationTimeoutMs), which a 15 MB reply on a busy machine could overrun.
 */
const CHUNKS_PER_READ = 8;

interface Head {
  readonly generation: string;
  readonly chunks: number;
}

export function createSnapshotStore(cache: Cache, limits: SnapshotLimits, logger: Logger): SnapshotStore {
  // The package version in the namespace: a release that parses differently never reads an
  // older release's snapshots. What parsing depends on besides the file is part of each key.
  const store = cache.scope(`snapshot-v${SNAPSHOT_FORMAT}@${VERSION}`);
  const parseLimits = `${limits.maxFrontmatterBytes}/${limits.maxSkillFileBytes}`;
  const headKey = (root: string) => `${parseLimits}:${root}`;
  const chunkKey = (root: string, head: Head, index: number) => `${headKey(root)}#${head.generation}.${index}`;
  /** The generation each root's head names, as last read or written here: its chunks go once replaced. */
  const current = new Map<string, Head>();
  const waiting = new Map<string, Iterable<SnapshotRecord>>();
  let writing: Promise<void> | undefined;
  let hurry = false;
  const tooLarge = new Set<string>();

  const write = async (root: string, records: Iterable<SnapshotRecord>) => {
    const chunks: SnapshotRecord[][] = [];
    let chunk: SnapshotRecord[] = [];
    let chunkChars = 0;
    let total = 0;
    let count = 0;
    let sliceStart = performance.now();
    for (const record of records) {
      const chars = JSON.stringify(record).length + 1;
      if (chunkChars + chars > CHUNK_CHARS && chunk.length > 0) {
        chunks.push(chunk);
        chunk = [];
        chunkChars = 0;
      }
      chunk.push(record);
      count++;
      chunkChars += chars;
      total += chars;
      if (total > MAX_SNAPSHOT_CHARS) {
        if (!tooLarge.has(root)) logger.info(`not keeping a snapshot of ${root} in the cache: it is larger than ${MAX_SNAPSHOT_CHARS} characters, so restarts list and read it from disk`);
        tooLarge.add(root);
        return;
      }
      if (!hurry && performance.now() - sliceStart >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    // Nothing past the racy window yet (a root just written): nothing a restart could take.
    if (count === 0) return;
    chunks.push(chunk);
    const head: Head = { generation: randomBytes(6).toString("hex"), chunks: chunks.length };
    // The chunks land before the head that names them, so a reader never finds a head without them.
    await Promise.all(chunks.map((records, index) => store.set(chunkKey(root, head, index), records as JsonValue)));
    await store.set(headKey(root), { format: SNAPSHOT_FORMAT, ...head });
    const replaced = current.get(root);
    current.set(root, head);
    if (replaced && replaced.generation !== head.generation) {
      for (let index = 0; index < replaced.chunks; index++) void store.delete(chunkKey(root, replaced, index));
    }
    logger.debug(`kept a snapshot of ${root}: ${count} records, ${total} characters in ${chunks.length} cache entries`);
  };

  const drain = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    for (const [root, records] of waiting) {
      waiting.delete(root);
      try {
        await write(root, records);
      } catch (error) {
        logger.debug(`could not keep a snapshot of ${root}: ${errorMessage(error)}`);
      }
    }
    writing = undefined;
  };

  return {
    async recall(root, rank) {
      const head = checkHead(await store.get(headKey(root)));
      if (!head) return undefined;
      current.set(root, head);
      const records: unknown[] = [];
      for (let start = 0; start < head.chunks; start += CHUNKS_PER_READ) {
        const indexes = Array.from({ length: Math.min(CHUNKS_PER_READ, head.chunks - start) }, (_, offset) => start + offset);
        const chunks = await Promise.all(indexes.map((index) => store.get(chunkKey(root, head, index))));
        for (const chunk of chunks) if (Array.isArray(chunk)) for (const record of chunk) records.push(record);
      }
      // Each record stands alone: a chunk gone missing costs its folders a listing and its files a read.
      return recallRecords(records, rank);
    },
    keep(root, records) {
      waiting.set(root, records);
      writing ??= drain();
    },
    async flush() {
      hurry = true;
      await writing;
    },
  };
}

function checkHead(value: unknown): Head | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { format, generation, chunks } = value as Record<string, unknown>;
  if (format !== SNAPSHOT_FORMAT || typeof generation !== "string" || !/^[0-9a-f]{12}$/.test(generation)) return undefined;
  if (!Number.isInteger(chunks) || (chunks as number) < 0 || (chunks as number) > (2 * MAX_SNAPSHOT_CHARS) / CHUNK_CHARS + 1) return undefined;
  return { generation, chunks: chunks as number };
}
