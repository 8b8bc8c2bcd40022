import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { setImmediate } from "node:timers";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Cache, JsonValue } from "../../../kernel/cache.js";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import { VERSION } from "../../../version.js";
import { recallRecords, type RecalledRoot, type SnapshotRecord } from "./snapshot.js";

const brotli = promisify(zlib.brotliCompress);
const unbrotli = promisify(zlib.brotliDecompress);

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
   * made it has answered, a little at a time, a few compressed chunks in memory at once, and only
   * the chunks the cache does not hold already. A later keep of the same root replaces one not yet
   * written.
   */
  keep(root: string, records: Iterable<SnapshotRecord>): void;
  /**
   * Write whatever keep left waiting, at once (at shutdown), for up to flushMs: then the chunks
   * landed so far are kept, and the next start reads the rest from disk and adds them.
   */
  flush(): Promise<void>;
  /**
   * Whether the cache lost `root`'s snapshot since this store read or wrote it (Redis restarted
   * empty); if so, the store forgets which chunks the cache held, so the next keep writes them all.
   */
  lost(root: string): Promise<boolean>;
}

export interface SnapshotLimits {
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
}

/** Sizes and times of the store, injectable so that a test reaches a large root's paths with a few skills. */
export interface SnapshotTuning {
  /** The most characters of JSON in one chunk, before compression. */
  readonly chunkChars: number;
  /** A root whose snapshot would take more characters in the cache is not kept. */
  readonly maxStoredChars: number;
  /** How long a flush at shutdown may write before it keeps the chunks landed so far. */
  readonly flushMs: number;
}

export interface SnapshotStoreOptions {
  /**
   * Whether chunks are compressed (brotli, in base64): for a cache whose memory or network is what
   * costs (Redis). A local disk holds plain JSON, which a restart parses without inflating it first.
   */
  readonly compress?: boolean;
  readonly tuning?: SnapshotTuning;
}

/**
 * The layout of stored snapshots: a change to the records or to how they are split changes it,
 * so an older layout is never read as this one (its keys are simply never asked for again).
 */
export const SNAPSHOT_FORMAT = 2;

const DEFAULT_TUNING: SnapshotTuning = {
  // Under V8's largest object of the regular heap (128 KiB): a larger string goes to the large
  // object space, freed only by a full collection, and 100,000 skills' chunks piled up there
  // while being written. Compressed and in base64, far under the cache's default largest entry (1 MiB).
  chunkChars: 96 * 1024,
  // Room for the scale benchmark's 100,000 skills, compressed (docs/benchmarks.md): a cache may forget, never hoard.
  maxStoredChars: 256 * 1024 * 1024,
  // Under the kernel's 5 s for a stop hook, leaving the head time to land.
  flushMs: 3_000,
};

/**
 * Records are grouped into chunks by weight (a folder 1, a SKILL.md read SKILL_WEIGHT): a group
 * ends after a record whose path hashes to a multiple of BOUNDARY_EVERY once it weighs
 * MIN_GROUP_WEIGHT, or at MAX_GROUP_WEIGHT. Where a group ends depends on the records around it,
 * not on everything before, so a skill changed, added or removed changes one chunk and a rewrite
 * keeps the others as they are.
 */
const BOUNDARY_EVERY = 16;
const SKILL_WEIGHT = 16;
const MIN_GROUP_WEIGHT = 256;
const MAX_GROUP_WEIGHT = 2048;
/** Set explicitly rather than the cache's default: chunk reuse (REUSE_MS) depends on it. */
const SNAPSHOT_TTL_MS = 7 * 24 * 3_600_000;
/** An unchanged chunk older than this is written again, so that it never expires under a head that names it. */
const REUSE_MS = 3 * 24 * 3_600_000;
/** How long the background write works before letting the event loop run. */
const SLICE_MS = 2;
/** Chunks compressed or being written at once: a few, so a 100,000-skill snapshot never sits whole in memory. */
const CHUNKS_IN_FLIGHT = 4;
/**
 * Chunks asked for in one cache read (one MGET): each read has its own deadline
 * (operationTimeoutMs), which one reply holding a large snapshot whole could overrun on a busy machine.
 */
const CHUNKS_PER_READ = 8;
/**
 * Brotli at quality 4: of zlib's (Node 20 has no zstd), the smallest output for its time on real
 * skills' snapshot chunks (docs/benchmarks.md), and it runs on libuv's threads, off the event loop.
 */
const BROTLI_QUALITY = 4;

/** A chunk named in a head: the hash of its JSON, when it was written, and the characters it takes in the cache. */
type ChunkRef = readonly [hash: string, writtenAt: number, storedChars: number];

interface Head {
  readonly chunks: readonly ChunkRef[];
}

export function createSnapshotStore(
  cache: Cache,
  limits: SnapshotLimits,
  logger: Logger,
  { compress = true, tuning = DEFAULT_TUNING }: SnapshotStoreOptions = {},
): SnapshotStore {
  // The package version in the namespace: a release that parses differently never reads an
  // older release's snapshots. What parsing depends on besides the file is part of each key.
  const store = cache.scope(`snapshot-v${SNAPSHOT_FORMAT}@${VERSION}`);
  const parseLimits = `${limits.maxFrontmatterBytes}/${limits.maxSkillFileBytes}`;
  const headKey = (root: string) => `${parseLimits}:${root}`;
  const chunkKey = (root: string, hash: string) => `${headKey(root)}#${hash}`;
  /** Per root, the chunks known to be in the cache (read back, or written here), by hash: a rewrite keeps them. */
  const present = new Map<string, Map<string, ChunkRef>>();
  const waiting = new Map<string, Iterable<SnapshotRecord>>();
  let writing: Promise<void> | undefined;
  /** Set by flush: write without pausing, and keep what has landed by then. */
  let deadline: number | undefined;
  const tooLarge = new Set<string>();

  const write = async (root: string, records: Iterable<SnapshotRecord>) => {
    const known = present.get(root) ?? new Map<string, ChunkRef>();
    const kept: ChunkRef[] = [];
    const written: string[] = [];
    const inFlight = new Set<Promise<void>>();
    let storedChars = 0;
    let count = 0;
    let cut = false;
    let refused = false;

    /** Compress and store one chunk, its place in the head taken now (chunks land in any order). */
    const store1 = async (hash: string, text: string, group: readonly SnapshotRecord[]) => {
      const at = kept.length;
      kept.push([hash, Date.now(), 0]);
      const task = (async () => {
        // Uncompressed, the records are the value itself: a restart parses them once, unescaped.
        const stored: JsonValue = compress ? await compressed(text) : group;
        const chars = typeof stored === "string" ? stored.length : text.length;
        storedChars += chars;
        if (storedChars > tuning.maxStoredChars) {
          refused = true;
          return;
        }
        kept[at] = [hash, kept[at]![1], chars];
        written.push(hash);
        await store.set(chunkKey(root, hash), stored, SNAPSHOT_TTL_MS);
      })().finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= CHUNKS_IN_FLIGHT) await Promise.race(inFlight);
    };

    /**
     * One group of records: kept as it is when the cache holds a chunk of the same records with
     * the same identities (a record's content follows from its identity: that is what a restart
     * trusts), so an unchanged chunk costs no serializing; otherwise serialized, and halved until
     * each half fits in chunkChars.
     */
    const send = async (group: readonly SnapshotRecord[]): Promise<void> => {
      const hash = groupHash(group);
      const earlier = known.get(hash);
      if (earlier && Date.now() - earlier[1] < REUSE_MS) {
        kept.push(earlier);
        storedChars += earlier[2];
        return;
      }
      const half = Math.ceil(group.length / 2);
      // A group the last write halved: its halves are tried without serializing the whole.
      const halved = group.length > 1 && known.has(groupHash(group.slice(0, half)));
      if (!halved) {
        // Record by record, joined only when the whole fits: no string past chunkChars is made.
        const parts = group.map((record) => JSON.stringify(record));
        const chars = parts.reduce((sum, part) => sum + part.length + 1, 1);
        if (chars <= tuning.chunkChars || group.length === 1) return store1(hash, `[${parts.join(",")}]`, group);
      }
      await send(group.slice(0, half));
      await send(group.slice(half));
    };

    let group: SnapshotRecord[] = [];
    let weight = 0;
    let sliceStart = performance.now();
    for (const record of records) {
      if (refused) break;
      if (deadline !== undefined && performance.now() > deadline) {
        cut = true;
        break;
      }
      group.push(record);
      count++;
      weight += record[0] === "s" ? SKILL_WEIGHT : 1;
      if (
        weight >= MAX_GROUP_WEIGHT ||
        (weight >= MIN_GROUP_WEIGHT && boundaryHash(String(record[1])) % BOUNDARY_EVERY === 0)
      ) {
        await send(group);
        group = [];
        weight = 0;
      }
      if (deadline === undefined && performance.now() - sliceStart >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    if (!cut && !refused && group.length > 0) await send(group);
    await Promise.all(inFlight);
    if (refused) {
      if (!tooLarge.has(root))
        logger.info(
          `not keeping a snapshot of ${root} in the cache: it is larger than ${tuning.maxStoredChars} characters, so restarts list and read it from disk`,
        );
      tooLarge.add(root);
      await Promise.all(written.map((hash) => store.delete(chunkKey(root, hash))));
      return;
    }
    // Nothing past the racy window yet (a root just written): nothing a restart could take.
    if (kept.length === 0) return;
    // The chunks land before the head that names them, so a reader never finds a head without them.
    await store.set(headKey(root), { format: SNAPSHOT_FORMAT, chunks: kept as JsonValue }, SNAPSHOT_TTL_MS);
    const now = new Map(kept.map((ref) => [ref[0], ref]));
    present.set(root, now);
    // Awaited, so that a flush at shutdown leaves no chunk behind that no head names.
    await Promise.all(
      [...known.keys()].filter((hash) => !now.has(hash)).map((hash) => store.delete(chunkKey(root, hash))),
    );
    logger.debug(
      `kept a snapshot of ${root}: ${count} records${cut ? " (cut short at shutdown: the rest is read from disk at the next start)" : ""} ` +
        `in ${kept.length} cache entries, ${written.length} written, ${storedChars} characters stored`,
    );
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
      const head = checkHead(await store.get(headKey(root)), tuning);
      if (!head) return undefined;
      const found = new Map<string, ChunkRef>();
      const records: unknown[] = [];
      for (let start = 0; start < head.chunks.length; start += CHUNKS_PER_READ) {
        const refs = head.chunks.slice(start, start + CHUNKS_PER_READ);
        const chunks = await Promise.all(refs.map(async ([hash]) => readChunk(await store.get(chunkKey(root, hash)))));
        chunks.forEach((chunk, index) => {
          if (!chunk) return;
          found.set(refs[index]![0], refs[index]!);
          for (const record of chunk) records.push(record);
        });
      }
      present.set(root, found);
      // Each record stands alone: a chunk gone missing costs its folders a listing and its files a read.
      return recallRecords(records, rank);
    },
    keep(root, records) {
      waiting.set(root, records);
      writing ??= drain();
    },
    async lost(root) {
      if (!present.has(root) || tooLarge.has(root)) return false;
      if (checkHead(await store.get(headKey(root)), tuning)) return false;
      present.delete(root);
      return true;
    },
    async flush() {
      deadline = performance.now() + tuning.flushMs;
      await writing;
    },
  };
}

/** A chunk's JSON, compressed and in base64. */
async function compressed(text: string): Promise<string> {
  const bytes = Buffer.from(text, "utf8");
  const params = {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  };
  return (await brotli(bytes, { params })).toString("base64");
}

/** The records of a stored chunk (as they are, or compressed), or undefined for anything this store did not write. */
async function readChunk(value: unknown): Promise<unknown[] | undefined> {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return undefined;
  try {
    const records: unknown = JSON.parse((await unbrotli(Buffer.from(value, "base64"))).toString("utf8"));
    return Array.isArray(records) ? records : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What names a group's chunk: its records' paths and identities (what a record holds follows from
 * them), hashed, so that telling an unchanged chunk costs no serializing of what it holds.
 */
function groupHash(group: readonly SnapshotRecord[]): string {
  const hash = createHash("sha1");
  for (const record of group) hash.update(JSON.stringify(record.slice(0, record[0] === "s" ? 7 : 6)));
  return hash.digest("hex").slice(0, 16);
}

/** FNV-1a over UTF-16 code units: cheap, and the same for the same path in every process. */
function boundaryHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return hash >>> 0;
}

function checkHead(value: unknown, tuning: SnapshotTuning): Head | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { format, chunks } = value as Record<string, unknown>;
  if (format !== SNAPSHOT_FORMAT || !Array.isArray(chunks)) return undefined;
  // Every chunk stores at least a character per 16 of JSON: more chunks than that are no head of this store's.
  if (chunks.length > (16 * tuning.maxStoredChars) / tuning.chunkChars + 1) return undefined;
  for (const ref of chunks) {
    if (
      !Array.isArray(ref) ||
      typeof ref[0] !== "string" ||
      !/^[0-9a-f]{16}$/.test(ref[0]) ||
      !Number.isFinite(ref[1]) ||
      !Number.isInteger(ref[2])
    )
      return undefined;
  }
  return { chunks: chunks as ChunkRef[] };
}
