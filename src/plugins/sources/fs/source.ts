import { Buffer } from "node:buffer";
import { stat } from "node:fs/promises";
import { basename, posix } from "node:path";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { Diagnostic, CatalogSource, SourceSkill, SourceSnapshot } from "../../../skills/types.js";
import {
  EXCERPT_CHARS,
  extractFrontmatter,
  parseFrontmatterBlock,
  parseSkillMd,
  type FrontmatterBlock,
  type ParsedSkillMd,
  type SkillMdIssue,
} from "../../../skills/skill-md/skill-md.js";
import { ASYNC_CALLS, BLOCKING_CALLS } from "../../../skills/files/file-calls.js";
import { createSkillFiles } from "./files.js";
import { inSlices } from "./in-slices.js";
import { ownString, ownStrings } from "./own-strings.js";
import { NotRegularFileError } from "../../../lib/regular-file.js";
import { OutsideFolderError } from "../../../skills/files/read-head.js";
import {
  currentIdentity,
  readSkillFileSync,
  sameIdentity,
  targetIdentity,
  type FileIdentity,
  type HeadLimits,
} from "./read-skill-file.js";
import { compare } from "../../../lib/compare.js";
import { scanRoot, type PathDiagnostic, type ScanResult, type SkillFolder } from "./scan.js";
import { watchRoots, type LoadBaseline } from "./watch.js";
import { sameFolderIdentity, type FolderIdentity, type FolderListing, type KnownFolders } from "./folder-listings.js";
import { folderRecord, readRecord, type KnownFolder, type RecalledRoot, type SnapshotRecord } from "./snapshot.js";
import type { SnapshotStore } from "./snapshot-store.js";

export interface FsSourceSettings {
  readonly name: string;
  /** Absolute folder paths in precedence order: a skill's rank is its root's index. */
  readonly roots: readonly string[];
  /** Roots that may not exist yet: scanned once they do, silently skipped until then. */
  readonly optionalRoots?: readonly string[];
  /** Roots whose symlinked skill folders are followed wherever they lead; others stay within the roots. */
  readonly followLinksOut?: readonly string[];
  readonly maxDepth: number;
  readonly maxDirectories: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
  /** False: watch() follows nothing (roots that never change, or a one-off listing). */
  readonly watch: boolean;
  readonly maxWatchedDirectories: number;
  readonly pollIntervalMs: number;
  readonly logger: Logger;
  /** Where each root's snapshot is kept across restarts (the shared cache), when there is one. */
  readonly snapshots?: SnapshotStore;
  /**
   * Whether a served source looks for its snapshots now and then, to write again one the cache
   * lost (Redis emptied); snapshots in this process's own files need no such check.
   */
  readonly probeSnapshots?: boolean;
  /** Subscribes to the cache coming back (CacheMonitor.onReady): a snapshot it lost is written again. */
  readonly onCacheReady?: (listener: () => void) => () => void;
  /**
   * False: each load runs to its end without letting the event loop run (see inSlices), for a
   * kernel that serves nothing while it loads (PluginRuntimeContext.inProcessOnly). Default true.
   */
  readonly loadInSlices?: boolean;
  /**
   * True: the reads of skill files after the load (readDocument, listFiles, readFile) make
   * blocking calls (BLOCKING_CALLS), for a kernel that serves nothing while it reads
   * (PluginRuntimeContext.inProcessOnly). Default false: fs/promises' calls.
   */
  readonly blockingReads?: boolean;
}

/** How often a served source looks for its snapshots in the cache, to write again one it lost. */
const SNAPSHOT_PROBE_MS = 10_000;
/** Enough for the frontmatter and the excerpt of nearly every real SKILL.md. */
const FIRST_READ_BYTES = 8 * 1024;
/** Enough for most of them: of a longer first read, what is decoded first. */
const FIRST_DECODED_BYTES = 4 * 1024;

/**
 * A file or folder modified this recently may change again within the same timestamp tick,
 * leaving its identity unchanged: its read or listing is not kept across restarts ("racily
 * clean", as git calls it).
 */
const RACY_WINDOW_MS = 2_000;

/**
 * One SKILL.md as a load found it: the file's identity and what parsing it gave. Kept from one
 * load to the next, an unchanged file (same identity, one lstat) is not read or parsed again; a
 * persistent cache could keep the same records across restarts.
 */
export interface ReadRecord {
  readonly identity: FileIdentity;
  readonly read: SkillRead;
}

/** Records by skill file path, one map per root (a rank is part of what was read). */
export type ReadRecords = ReadonlyMap<string, ReadRecord>;

/**
 * A skill source over folders on disk. Each load scans afresh, so it can be called again whenever
 * the folders change; kept between loads are where the last load found each skill (the folders
 * its files are served from) and what each skill file held, by its identity.
 */
export function createFsSource(settings: FsSourceSettings): CatalogSource {
  const files = createSkillFiles(settings.blockingReads ? BLOCKING_CALLS : ASYNC_CALLS);
  let records: readonly ReadRecords[] = settings.roots.map(() => new Map());
  /** Per root, the folders the last load listed (only with a snapshot store): see loadRoot. */
  let folders: readonly (ReadonlyMap<string, KnownFolder> | undefined)[] = settings.roots.map(() => undefined);
  /** What the last finished load's walk found, per root ("absent": an optional root not there). */
  let scans: readonly (ScanResult | "absent")[] | undefined;
  let loading: Promise<unknown> | undefined;
  /** Roots whose snapshot the cache lost: the next load keeps them whatever changed. */
  const lost = new Set<number>();

  const load = async (signal: AbortSignal): Promise<SourceSnapshot> => {
    const rewrite = new Set(lost);
    lost.clear();
    const perRoot = await Promise.all(
      settings.roots.map((root, rank) =>
        loadRoot(
          settings,
          root,
          rank,
          { records: records[rank]!, folders: folders[rank], keep: rewrite.has(rank) },
          signal,
        ),
      ),
    );
    records = perRoot.map((root) => root.records);
    folders = perRoot.map((root) => root.folders);
    scans = perRoot.map((root) => root.scan);
    files.remember(perRoot.flatMap((root) => root.skillFolders));
    return {
      skills: perRoot.flatMap((root) => root.skills).sort((a, b) => compare(a.path, b.path) || a.rank - b.rank),
      // A stable sort: within one path, diagnostics keep root order, then the order found.
      diagnostics: perRoot.flatMap((root) => root.diagnostics).sort((a, b) => compare(a.path, b.path)),
    };
  };

  const baseline: LoadBaseline = {
    async settled() {
      while (loading) await loading;
    },
    isCurrent(rank, scan) {
      const last = scans?.[rank];
      if (last === undefined) return false;
      // Still absent, or there but holding no skill: either way the load's answer, nothing.
      if (last === "absent") return scan.folders.length === 0;
      return sameScan(last, scan) && scan.folders.every((folder) => isUnchanged(folder, records[rank]!));
    },
  };

  return {
    name: settings.name,
    description: settings.roots.join(", "),
    capabilities: { localFolders: settings.roots },
    load(signal) {
      const loaded = load(signal);
      // Only waited on, never failed through: the caller of load() gets the rejection, and a
      // load nobody else awaits (aborted at shutdown) must not become an unhandled rejection.
      const tracked: Promise<void> = loaded
        .then(
          () => {},
          () => {},
        )
        .finally(() => {
          if (loading === tracked) loading = undefined;
        });
      loading = tracked;
      return loaded;
    },
    readDocument: files.readDocument,
    listFiles: files.listFiles,
    readFile: files.readFile,
    watch: (onChange) => {
      const stopWatching = settings.watch ? watchRoots({ ...settings, baseline }, onChange) : () => {};
      const { snapshots } = settings;
      let checking = false;
      const checkSnapshots = () => {
        if (!snapshots || checking) return;
        checking = true;
        void (async () => {
          for (const [rank, root] of settings.roots.entries()) if (await snapshots.lost(root)) lost.add(rank);
          if (lost.size > 0) onChange();
        })()
          .catch((error: unknown) =>
            settings.logger.debug(`could not check the cache's snapshots: ${errorMessage(error)}`),
          )
          .finally(() => (checking = false));
      };
      // Redis back after a restart says so; one emptied while connected (FLUSHALL, eviction) does
      // not, so each snapshot's head is also looked for now and then: one GET a root.
      const stopChecking = snapshots && settings.onCacheReady?.(checkSnapshots);
      const probe = snapshots && settings.probeSnapshots ? setInterval(checkSnapshots, SNAPSHOT_PROBE_MS) : undefined;
      (probe as { unref?: () => void } | undefined)?.unref?.();
      return () => {
        stopWatching();
        stopChecking?.();
        clearInterval(probe);
      };
    },
    ...(settings.watch ? { freshness: "announced" as const } : {}),
  };
}

/** The same skill folders, found the same way, with the same problems. */
function sameScan(a: ScanResult, b: ScanResult): boolean {
  return (
    a.folders.length === b.folders.length &&
    a.folders.every((folder, index) => JSON.stringify(folder) === JSON.stringify(b.folders[index])) &&
    JSON.stringify(a.diagnostics) === JSON.stringify(b.diagnostics)
  );
}

/** Whether a skill file still has the identity it was read with (a symlink's target, followed). */
function isUnchanged(folder: SkillFolder, records: ReadRecords): boolean {
  const record = records.get(folder.file);
  if (!record) return false;
  const now = folder.fileKind === "link" ? targetIdentity(folder) : currentIdentity(folder);
  return now !== undefined && sameIdentity(record.identity, now);
}

interface RootSnapshot {
  readonly skills: SourceSkill[];
  readonly diagnostics: Diagnostic[];
  /** The skill folders of the skills loaded; a skipped skill's folder is not served. */
  readonly skillFolders: SkillFolder[];
  readonly records: ReadRecords;
  /** Every folder listed, by path in the root, when a snapshot store keeps them. */
  readonly folders?: ReadonlyMap<string, KnownFolder>;
  readonly scan: ScanResult | "absent";
}

/** What the last load of a root left in this process. */
interface RootMemory {
  readonly records: ReadRecords;
  readonly folders?: ReadonlyMap<string, KnownFolder>;
  /** Keep the root's snapshot even if nothing changed: the cache lost it. */
  readonly keep?: boolean;
}

/**
 * Loads one root. Without a snapshot store every folder is listed and every SKILL.md not read by
 * an earlier load of this process (same identity, one lstat) is read. With one, the first load
 * starts from the root's stored snapshot and later loads from the last load's: a folder whose
 * identity has not changed is not listed again, a SKILL.md whose identity has not changed not
 * read again, and a load that changed anything has the snapshot rewritten in the background.
 */
async function loadRoot(
  settings: FsSourceSettings,
  root: string,
  rank: number,
  memory: RootMemory,
  signal: AbortSignal,
): Promise<RootSnapshot> {
  const stamp = (diagnostic: PathDiagnostic): Diagnostic => ({ ...diagnostic, source: settings.name });
  const { maxDepth, maxDirectories, logger, snapshots } = settings;
  if (settings.optionalRoots?.includes(root) && (await isMissing(root))) {
    return { skills: [], diagnostics: [], skillFolders: [], records: new Map(), scan: "absent" };
  }
  // Anything modified after this may be racily clean: kept in this process, not across restarts.
  const trustedBefore = Date.now() - RACY_WINDOW_MS;
  const previous = memory.records;
  let recalled: RecalledRoot | undefined;
  let earlierFolders = memory.folders;
  if (snapshots && !earlierFolders) {
    recalled = await snapshots.recall(root, rank);
    earlierFolders = recalled?.folders ?? new Map();
  }
  const tracker = earlierFolders && new FolderTracker(earlierFolders, trustedBefore);
  const scan = await scanRoot(root, {
    maxDepth,
    maxDirectories,
    logger,
    signal,
    known: tracker,
    sourceRoots: settings.roots,
    followLinksOut: settings.followLinksOut?.includes(root),
    slices: settings.loadInSlices,
  });
  // A partial catalog would look whole to every client: refuse the root, saying how to serve it.
  if (scan.diagnostics.some((diagnostic) => diagnostic.code === "scan-limit")) {
    throw new Error(
      `${root} holds more than ${maxDirectories} folders (maxDirectories), so none of its skills are served; ` +
        `raise the fs option maxDirectories, or lower maxDepth`,
    );
  }
  const records = new Map<string, ReadRecord>();
  // One buffer for every read of this load: the reads are synchronous, never two at once.
  const scratch = Buffer.allocUnsafe(settings.maxSkillFileBytes);
  const limits = headLimits(settings);
  let reused = 0;
  /** Files read afresh whose reads the snapshot keeps: a change it does not hold yet. */
  let readForSnapshot = 0;
  const read = await inSlices(
    scan.folders,
    (folder) => {
      // A symlinked SKILL.md is checked on every load, never taken from a snapshot.
      const known =
        previous.get(folder.file) ?? (folder.fileKind === "file" ? recalled?.reads.get(folder.path) : undefined);
      const identity = known && currentIdentity(folder);
      if (known && identity && sameIdentity(known.identity, identity)) {
        records.set(folder.file, known);
        reused++;
        return known.read;
      }
      const fresh = readSkill(settings, folder, rank, limits, scratch);
      if (fresh.identity) {
        records.set(folder.file, { identity: fresh.identity, read: fresh.read });
        if (folder.fileKind === "file" && fresh.identity.mtimeMs < trustedBefore) readForSnapshot++;
      }
      return fresh.read;
    },
    signal,
    settings.loadInSlices,
  );
  const readAfresh = scan.folders.length - reused;
  logger.debug(
    `${root}: ${readAfresh} of ${scan.folders.length} SKILL.md files read` +
      (tracker ? `, ${tracker.listedAfresh} of ${tracker.listedAfresh + tracker.taken} folders listed` : ""),
  );
  if (snapshots && tracker) {
    // Changed or removed since the snapshot (or the last load): what was known and not reused.
    // Reads a snapshot never keeps (a symlinked SKILL.md, a file that cannot be read, one still
    // racily clean) are made on every start, and are no reason to write it again.
    const known = recalled ? recalled.reads.size : previous.size;
    if (memory.keep || readForSnapshot > 0 || reused < known || tracker.changed()) {
      const kept = tracker.kept;
      snapshots.keep(root, snapshotRecords(kept, scan.folders, records, trustedBefore));
    }
  }
  return {
    skills: read.flatMap((result) => (result.skill ? [result.skill] : [])),
    diagnostics: [...scan.diagnostics, ...read.flatMap((result) => result.diagnostics)].map(stamp),
    skillFolders: scan.folders.filter((_folder, index) => read[index]!.skill !== undefined),
    records,
    ...(tracker ? { folders: tracker.kept } : {}),
    scan,
  };
}

/**
 * The scan's KnownFolders over an earlier scan's folders. A listing is kept for the next scan
 * only once its folder is past the racy window, so an earlier listing always is.
 */
class FolderTracker implements KnownFolders {
  /** The folders of this scan whose listings the next one may take, by path in the root. */
  readonly kept = new Map<string, KnownFolder>();
  taken = 0;
  listedAfresh = 0;
  /** Listed afresh and kept: a change the earlier scan's folders do not hold. */
  #keptAfresh = 0;

  constructor(
    private readonly earlier: ReadonlyMap<string, KnownFolder>,
    private readonly trustedBefore: number,
  ) {}

  listingOf(rel: string, identity: FolderIdentity): FolderListing | undefined {
    const known = this.earlier.get(rel);
    return known && sameFolderIdentity(known.identity, identity) ? known.listing : undefined;
  }

  listed(rel: string, identity: FolderIdentity, listing: FolderListing): void {
    const earlier = this.earlier.get(rel);
    const taken = earlier?.listing === listing;
    if (taken) this.taken++;
    else this.listedAfresh++;
    if (identity.mtimeMs < this.trustedBefore) {
      // A listing taken keeps the identity it was stored with, so that a snapshot another runtime
      // wrote (timestamps at another precision) is written again as it was: its chunks unchanged.
      this.kept.set(rel, taken ? earlier : { identity, listing });
      if (!taken) this.#keptAfresh++;
    }
  }

  /** Whether a folder kept was listed afresh, or one of the earlier scan's is not taken (changed or gone). */
  changed(): boolean {
    return this.#keptAfresh > 0 || this.taken < this.earlier.size;
  }
}

/** The records of a root's snapshot: the folders kept and the reads of regular SKILL.md files past the racy window. */
function* snapshotRecords(
  kept: ReadonlyMap<string, KnownFolder>,
  skillFolders: readonly SkillFolder[],
  records: ReadRecords,
  trustedBefore: number,
): Generator<SnapshotRecord> {
  for (const [rel, folder] of kept) yield folderRecord(rel, folder);
  for (const folder of skillFolders) {
    const record = records.get(folder.file);
    if (folder.fileKind === "file" && record && record.identity.mtimeMs < trustedBefore)
      yield readRecord(folder.path, record);
  }
}

interface LoadLimits extends HeadLimits {
  /** The head isEnough last found enough, split: the parse takes it as it is. */
  readonly lastEnough?: { readonly head: string; readonly block: FrontmatterBlock };
}

/**
 * A head is enough once its frontmatter closed and more body follows than the excerpt takes;
 * otherwise up to maxSkillFileBytes are read, and the parse judges that.
 */
function headLimits(settings: FsSourceSettings): LoadLimits {
  const { maxSkillFileBytes, maxFrontmatterBytes } = settings;
  let lastEnough: LoadLimits["lastEnough"];
  return {
    maxBytes: maxSkillFileBytes,
    firstBytes: Math.min(FIRST_READ_BYTES, maxSkillFileBytes),
    firstDecodedBytes: Math.min(FIRST_DECODED_BYTES, maxSkillFileBytes),
    get lastEnough() {
      return lastEnough;
    },
    isEnough(head) {
      const block = extractFrontmatter(head, { maxFrontmatterBytes, truncated: true });
      // The last character of a cut head may be half of one: it must lie beyond the excerpt.
      const enough = !("code" in block) && block.body.length > EXCERPT_CHARS + 1;
      if (enough) lastEnough = { head, block };
      return enough;
    },
  };
}

async function isMissing(path: string): Promise<boolean> {
  try {
    await stat(path);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR";
  }
}

export interface SkillRead {
  readonly skill?: SourceSkill;
  readonly diagnostics: readonly PathDiagnostic[];
}

/**
 * The parsed skill with strings of its own (see ownStrings). The name and description are
 * usually the frontmatter's own values: then one copy serves both. `oneByte`: parsed from an
 * ASCII text, whose every string needs one byte a character.
 */
function ownSkill(parsed: ParsedSkillMd, oneByte: boolean): Omit<ParsedSkillMd, "excerpt"> {
  const frontmatter = ownStrings(parsed.frontmatter, oneByte);
  const shared = (value: string, key: string) =>
    frontmatter[key] === value ? (frontmatter[key] as string) : ownStrings(value, oneByte);
  return {
    name: shared(parsed.name, "name"),
    description: shared(parsed.description, "description"),
    frontmatter,
    // A warning may quote the folder's name, which is not cut from the text.
    warnings: ownStrings(parsed.warnings),
  };
}

/** What one skill file gave; `identity` is absent when it could not be read. */
function readSkill(
  settings: FsSourceSettings,
  folder: SkillFolder,
  rank: number,
  limits: LoadLimits,
  scratch: Buffer,
): { read: SkillRead; identity?: FileIdentity } {
  const skipped = (issue: SkillMdIssue): SkillRead => ({
    diagnostics: [{ severity: "error", path: folder.path, ...issue }],
  });

  let head;
  try {
    head = readSkillFileSync(folder, limits, scratch);
  } catch (error) {
    if (error instanceof NotRegularFileError)
      return { read: skipped({ code: "not-regular-file", message: error.message }) };
    if (error instanceof OutsideFolderError) {
      return { read: skipped({ code: "outside-skill", message: `${folder.file} leads outside the skill folder` }) };
    }
    return { read: skipped({ code: "read-error", message: `cannot read ${folder.file}: ${errorMessage(error)}` }) };
  }

  const options = {
    // The root's own folder name when the root itself is the skill.
    folderName: folder.path === "" ? basename(folder.dir) : posix.basename(folder.path),
    maxFrontmatterBytes: settings.maxFrontmatterBytes,
    truncated: head.truncated,
  };
  // A head the read found enough was split already, with the same options: not split again.
  const split = limits.lastEnough;
  const result =
    split?.head === head.text && head.truncated
      ? parseFrontmatterBlock(split.block, options)
      : parseSkillMd(head.text, options);
  if (!result.ok) return { read: skipped(result.error), identity: head.identity };
  // One count over the text spares a check of every string cut from it, in most files.
  const oneByte = Buffer.byteLength(head.text, "utf8") === head.text.length;
  const { name, description, frontmatter, warnings } = ownSkill(result.skill, oneByte);
  const path = folder.path;
  const excerpt = ownString(result.skill.excerpt, oneByte);
  return {
    read: {
      skill: { name, description, path, frontmatter, excerpt, rank },
      diagnostics: warnings.map((issue) => ({ severity: "warning", path: folder.path, ...issue })),
    },
    identity: head.identity,
  };
}
