import { Buffer } from "node:buffer";
import { stat } from "node:fs/promises";
import { basename, posix } from "node:path";
import { errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import type { Diagnostic, SkillSource, SourceSkill, SourceSnapshot } from "../../skills/types.js";
import { EXCERPT_CHARS, extractFrontmatter, parseSkillMd, type ParsedSkillMd, type SkillMdIssue } from "../../skills/skill-md.js";
import { createSkillFiles } from "./files.js";
import { inSlices } from "./in-slices.js";
import { compactExcerpt, ownStrings, withUtf8Excerpt } from "./own-strings.js";
import { NotRegularFileError, OutsideFolderError } from "./read-head.js";
import { currentIdentity, readSkillFileSync, sameIdentity, targetIdentity, type FileIdentity, type HeadLimits } from "./read-skill-file.js";
import { compare, scanRoot, type PathDiagnostic, type ScanResult, type SkillFolder } from "./scan.js";
import { watchRoots, type LoadBaseline } from "./watch.js";
import type { ReadCache } from "./read-cache.js";

export interface FsSourceSettings {
  readonly name: string;
  /** Absolute folder paths in precedence order: a skill's rank is its root's index. */
  readonly roots: readonly string[];
  /** Roots that may not exist yet: scanned once they do, silently skipped until then. */
  readonly optionalRoots?: readonly string[];
  readonly maxDepth: number;
  readonly maxDirectories: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
  /** False: watch() follows nothing (roots that never change, or a one-off listing). */
  readonly watch: boolean;
  readonly maxWatchedDirectories: number;
  readonly pollIntervalMs: number;
  readonly logger: Logger;
  /** Reads kept across restarts (the shared cache), when there is one. */
  readonly readCache?: ReadCache;
}


/** Enough for the frontmatter and the excerpt of nearly every real SKILL.md. */
const FIRST_READ_BYTES = 8 * 1024;

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
export function createFsSource(settings: FsSourceSettings): SkillSource {
  const files = createSkillFiles();
  let records: readonly ReadRecords[] = settings.roots.map(() => new Map());
  /** What the last finished load's walk found, per root ("absent": an optional root not there). */
  let scans: readonly (ScanResult | "absent")[] | undefined;
  let loading: Promise<unknown> | undefined;

  const load = async (signal: AbortSignal): Promise<SourceSnapshot> => {
    const perRoot = await Promise.all(settings.roots.map((root, rank) => loadRoot(settings, root, rank, records[rank]!, signal)));
    records = perRoot.map((root) => root.records);
    scans = perRoot.map((root) => root.scan);
    files.remember(perRoot.flatMap((root) => root.folders));
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
      const tracked: Promise<void> = loaded.then(
        () => {},
        () => {},
      ).finally(() => {
        if (loading === tracked) loading = undefined;
      });
      loading = tracked;
      return loaded;
    },
    readDocument: files.readDocument,
    listFiles: files.listFiles,
    readFile: files.readFile,
    watch: (onChange) => (settings.watch ? watchRoots({ ...settings, baseline }, onChange) : () => {}),
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
  /** The folders of the skills loaded; a skipped skill's folder is not served. */
  readonly folders: SkillFolder[];
  readonly records: ReadRecords;
  readonly scan: ScanResult | "absent";
}

async function loadRoot(
  settings: FsSourceSettings,
  root: string,
  rank: number,
  previous: ReadRecords,
  signal: AbortSignal,
): Promise<RootSnapshot> {
  const stamp = (diagnostic: PathDiagnostic): Diagnostic => ({ ...diagnostic, source: settings.name });
  const { maxDepth, maxDirectories, logger } = settings;
  if (settings.optionalRoots?.includes(root) && (await isMissing(root))) {
    return { skills: [], diagnostics: [], folders: [], records: new Map(), scan: "absent" };
  }
  const scan = await scanRoot(root, { maxDepth, maxDirectories, logger, signal });
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
  // Files this process has not read yet may have been read by an earlier one (the shared cache).
  const recalled = await settings.readCache?.recall(
    scan.folders.filter((folder) => folder.fileKind === "file" && !previous.has(folder.file)),
    rank,
  );
  const read = await inSlices(
    scan.folders,
    (folder) => {
      const known = previous.get(folder.file) ?? recalled?.get(folder.file);
      const identity = known && currentIdentity(folder);
      if (known && identity && sameIdentity(known.identity, identity)) {
        records.set(folder.file, known);
        return known.read;
      }
      const fresh = readSkill(settings, folder, rank, limits, scratch);
      if (fresh.identity) {
        const record = { identity: fresh.identity, read: fresh.read };
        records.set(folder.file, record);
        // A symlinked SKILL.md is checked on every load, never taken from the cache.
        if (folder.fileKind === "file") settings.readCache?.keep(folder, record);
      }
      return fresh.read;
    },
    signal,
  );
  return {
    skills: read.flatMap((result) => (result.skill ? [result.skill] : [])),
    diagnostics: [...scan.diagnostics, ...read.flatMap((result) => result.diagnostics)].map(stamp),
    folders: scan.folders.filter((_folder, index) => read[index]!.skill !== undefined),
    records,
    scan,
  };
}

/**
 * A head is enough once its frontmatter closed and more body follows than the excerpt takes;
 * otherwise up to maxSkillFileBytes are read, and the parse judges that.
 */
function headLimits(settings: FsSourceSettings): HeadLimits {
  const { maxSkillFileBytes, maxFrontmatterBytes } = settings;
  return {
    maxBytes: maxSkillFileBytes,
    firstBytes: Math.min(FIRST_READ_BYTES, maxSkillFileBytes),
    isEnough(head) {
      const block = extractFrontmatter(head, { maxFrontmatterBytes, truncated: true });
      // The last character of a cut head may be half of one: it must lie beyond the excerpt.
      return !("code" in block) && block.body.length > EXCERPT_CHARS + 1;
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
 * usually the frontmatter's own values: then one copy serves both.
 */
function ownSkill(parsed: ParsedSkillMd): Omit<ParsedSkillMd, "excerpt"> {
  const frontmatter = ownStrings(parsed.frontmatter);
  const shared = (value: string, key: string) => (frontmatter[key] === value ? (frontmatter[key] as string) : ownStrings(value));
  return {
    name: shared(parsed.name, "name"),
    description: shared(parsed.description, "description"),
    frontmatter,
    warnings: ownStrings(parsed.warnings),
  };
}

/** What one skill file gave; `identity` is absent when it could not be read. */
function readSkill(
  settings: FsSourceSettings,
  folder: SkillFolder,
  rank: number,
  limits: HeadLimits,
  scratch: Buffer,
): { read: SkillRead; identity?: FileIdentity } {
  const skipped = (issue: SkillMdIssue): SkillRead => ({ diagnostics: [{ severity: "error", path: folder.path, ...issue }] });

  let head;
  try {
    head = readSkillFileSync(folder, limits, scratch);
  } catch (error) {
    if (error instanceof NotRegularFileError) return { read: skipped({ code: "not-regular-file", message: error.message }) };
    if (error instanceof OutsideFolderError) {
      return { read: skipped({ code: "outside-skill", message: `${folder.file} leads outside the skill folder` }) };
    }
    return { read: skipped({ code: "read-error", message: `cannot read ${folder.file}: ${errorMessage(error)}` }) };
  }

  const result = parseSkillMd(head.text, {
    // The root's own folder name when the root itself is the skill.
    folderName: folder.path === "" ? basename(folder.dir) : posix.basename(folder.path),
    maxFrontmatterBytes: settings.maxFrontmatterBytes,
    truncated: head.truncated,
  });
  if (!result.ok) return { read: skipped(result.error), identity: head.identity };
  const { name, description, frontmatter, warnings } = ownSkill(result.skill);
  const path = folder.path;
  const excerpt = compactExcerpt(result.skill.excerpt);
  return {
    read: {
      // Literals, so that every skill of either kind shares one hidden class.
      skill:
        typeof excerpt === "string"
          ? { name, description, path, frontmatter, excerpt, rank }
          : withUtf8Excerpt({ name, description, path, frontmatter, rank }, excerpt),
      diagnostics: warnings.map((issue) => ({ severity: "warning", path: folder.path, ...issue })),
    },
    identity: head.identity,
  };
}
