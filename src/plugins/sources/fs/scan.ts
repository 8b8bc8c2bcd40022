import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import pLimit from "p-limit";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { Diagnostic } from "../../../skills/types.js";
import { isInstallStaging } from "../../../skills/files/install-staging.js";
import { folderIdentity, type FolderListing, type KnownFolders } from "./folder-listings.js";
import { inSlices } from "./in-slices.js";
import { describeKind } from "../../../lib/regular-file.js";
import { SKILL_FILES, SKIPPED_FOLDERS } from "../../../skills/files/folder-rules.js";
import { compare } from "../../../lib/compare.js";
import { isServedFrom } from "../../../skills/files/served-path.js";

/** A folder holding a SKILL.md, not yet read. */
export interface SkillFolder {
  /** Relative to the root, POSIX separators; "" when the root itself is the skill. */
  readonly path: string;
  /** The folder's real absolute path (a symlinked skill's target). */
  readonly dir: string;
  /** SKILL.md or skill.md inside `dir`, as listed: it may itself be a symlink. */
  readonly file: string;
  /** What the directory entry of `file` was: a regular file, a symlink, or something not to open. */
  readonly fileKind: SkillFileKind;
  /** Reached through a symlinked folder. */
  readonly linked: boolean;
}

export type SkillFileKind = "file" | "link" | { readonly notFile: string };

/** A diagnostic about a path under one root, before the source stamps its name on it. */
export type PathDiagnostic = Omit<Diagnostic, "source">;

export interface ScanOptions {
  /** How many folders below the root to descend; 0 looks at the root alone. */
  readonly maxDepth: number;
  /** The most folders to list; past it the scan stops with a "scan-limit" diagnostic. */
  readonly maxDirectories: number;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /**
   * Called with each folder's real path just before it is listed, so that a watcher armed there
   * sees every change the listing does not show. The scan waits for it.
   */
  readonly onDirectory?: (dir: string) => void | Promise<void>;
  /**
   * Listings of an earlier scan: a folder that still has the identity it was listed with (one
   * lstat) is not listed again. Only for the load's scan (without onDirectory).
   */
  readonly known?: KnownFolders;
  /**
   * The folders a symlinked skill folder may lead into: every root of the scanned root's source.
   * Default: the scanned root alone. A link leading anywhere else is not followed.
   */
  readonly sourceRoots?: readonly string[];
  /** Follow a symlinked skill folder wherever it leads (a root the user alone writes to). */
  readonly followLinksOut?: boolean;
  /** False: list without letting the event loop run (see inSlices); default true. */
  readonly slices?: boolean;
}

export interface ScanResult {
  /** Sorted by path. */
  readonly folders: readonly SkillFolder[];
  readonly diagnostics: readonly PathDiagnostic[];
}

const CONCURRENCY = 16;

interface Folder {
  readonly abs: string;
  readonly rel: string;
  readonly linked: boolean;
}

interface Visit {
  readonly skill?: SkillFolder;
  readonly children: readonly Folder[];
  readonly diagnostics: readonly PathDiagnostic[];
}

/** Shared by every visit that has none: ten thousand folders, ten thousand empty arrays fewer. */
const NONE: readonly never[] = [];
const NOTHING: Visit = { children: NONE, diagnostics: NONE };

/**
 * Finds the skill folders under `root`, breadth first, one depth level at a time: a level's folders
 * are listed concurrently, yet which folders fall under maxDirectories never depends on timing.
 *
 * The walk keeps going inside skill folders, because real skills nest inside other skills'
 * references/ and assets/. It never descends through a symlink, so link cycles cannot loop; a
 * symlinked folder holding a SKILL.md (`ln -s ~/src/my-skill ~/.claude/skills/`) is taken as one
 * skill, its target's own sub-folders left alone. Only sub-folders and the skill file are looked
 * at, so a skill with 20,000 files costs one readdir.
 */
export async function scanRoot(root: string, options: ScanOptions): Promise<ScanResult> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    return { folders: [], diagnostics: [scanError("", `cannot read root ${root}: ${errorMessage(error)}`)] };
  }

  const within = options.followLinksOut ? "anywhere" : await realRoots(options.sourceRoots, realRoot);
  const found: SkillFolder[] = [];
  const diagnostics: PathDiagnostic[] = [];
  let level: Folder[] = [{ abs: realRoot, rel: "", linked: false }];
  /** The folders just below maxDepth: not served, only looked into for skills to report. */
  const below: Folder[] = [];
  let visited = 0;
  for (let depth = 0; level.length > 0; depth++) {
    const room = options.maxDirectories - visited;
    const overLimit = level.length > room;
    if (overLimit) {
      level = level.slice(0, room);
      diagnostics.push({
        severity: "error",
        path: "",
        code: "scan-limit",
        message: `stopped after ${options.maxDirectories} folders under ${root} (maxDirectories); skills beyond were not listed`,
      });
    }
    visited += level.length;
    const descend = depth < options.maxDepth;
    const visit = (folder: Folder) => visitFolder(folder, options, within);
    const visits = options.onDirectory
      ? await pLimit(CONCURRENCY).map(level, async (folder) => {
          options.signal.throwIfAborted();
          return visit(folder);
        })
      : await inSlices(level, visit, options.signal, options.slices);
    level = [];
    for (const visit of visits) {
      if (visit.skill) found.push(visit.skill);
      for (const child of visit.children) (descend ? level : below).push(child);
      diagnostics.push(...visit.diagnostics);
    }
    if (overLimit) break;
  }
  const deeper = below.length === 0 ? 0 : countSkillsBelow(below, options.maxDirectories - visited);
  if (deeper > 0) diagnostics.push(belowMaxDepth(deeper, root, options.maxDepth));
  return { folders: dropDuplicateFolders(found, options.logger), diagnostics };
}

/**
 * Skills below maxDepth are not served, but never silently: the load reports how many there are
 * and the option that serves them. Counting walks the folders below the cut (synchronously, at
 * most `room` of them, never through a symlink), which maxDirectories bounds like the scan.
 */
function countSkillsBelow(start: readonly Folder[], room: number): number {
  let count = 0;
  const stack = start.filter((folder) => !folder.linked).map((folder) => folder.abs);
  for (let listed = 0; stack.length > 0 && listed < room; listed++) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // Unreadable or gone: nothing to count there.
    }
    if (findSkillFile(entries)) count++;
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && !isInstallStaging(entry.name))
        stack.push(inFolder(dir, entry.name));
    }
  }
  return count;
}

function belowMaxDepth(count: number, root: string, maxDepth: number): PathDiagnostic {
  const skills = count === 1 ? "1 skill lies" : `${count} skills lie`;
  return {
    severity: "warning",
    path: "",
    code: "below-max-depth",
    message: `${skills} more than ${maxDepth} folders below ${root} (maxDepth) and ${count === 1 ? "is" : "are"} not served; raise the fs option maxDepth to serve ${count === 1 ? "it" : "them"}`,
  };
}

/**
 * A folder's skill and the folders to walk on. The load's scan lists synchronously and visits a
 * folder without a symlink in it synchronously too: no promise per folder.
 */
function visitFolder(folder: Folder, options: ScanOptions, within: LinksWithin): Visit | Promise<Visit> {
  const { logger, onDirectory } = options;
  if (folder.linked) return visitLinkedFolder(folder, within, logger, onDirectory);
  // The load lists folders one after another, synchronously, in slices (in-slices.ts); the
  // watcher's scans keep the concurrent asynchronous listing: each folder's watch is armed
  // before it is listed.
  if (onDirectory) return visitListedAsync(folder, options);
  let listing: FolderListing;
  try {
    listing = options.known
      ? listKnown(folder, options.known)
      : listingOfEntries(readdirSync(folder.abs, { withFileTypes: true }));
  } catch (error) {
    return unlisted(folder, error, logger);
  }
  return visitOf(folder, listing, logger);
}

async function visitListedAsync(folder: Folder, options: ScanOptions): Promise<Visit> {
  let listing: FolderListing;
  try {
    await options.onDirectory!(folder.abs);
    listing = listingOfEntries(await readdir(folder.abs, { withFileTypes: true }));
  } catch (error) {
    return unlisted(folder, error, options.logger);
  }
  return visitOf(folder, listing, options.logger);
}

function unlisted(folder: Folder, error: unknown, logger: Logger): Visit {
  if (isGone(error)) {
    logger.debug(`${folder.abs} vanished during the scan`);
    return NOTHING;
  }
  return { children: [], diagnostics: [scanError(folder.rel, `cannot list ${folder.abs}: ${errorMessage(error)}`)] };
}

/** A folder's skill and its sub-folders: the scan walks them on, or past maxDepth counts skills in them. */
function visitOf(folder: Folder, listing: FolderListing, logger: Logger): Visit | Promise<Visit> {
  const { skillFile } = listing;
  const skill =
    skillFile === undefined
      ? undefined
      : {
          path: folder.rel,
          dir: folder.abs,
          file: inFolder(folder.abs, skillFile.name),
          fileKind: skillFile.kind,
          linked: false,
        };
  if (listing.children.length === 0) return { skill, children: NONE, diagnostics: NONE };
  if (listing.links.length > 0) return visitWithLinks(folder, listing, skill, logger);
  const children = listing.children.map(
    (name): Folder => ({ abs: inFolder(folder.abs, name), rel: childPath(folder.rel, name), linked: false }),
  );
  return { skill, children, diagnostics: NONE };
}

/** A symlink among the children is followed only if it leads to a folder, which takes a stat. */
async function visitWithLinks(
  folder: Folder,
  listing: FolderListing,
  skill: SkillFolder | undefined,
  logger: Logger,
): Promise<Visit> {
  const children: Folder[] = [];
  let nextLink = 0;
  for (const [index, name] of listing.children.entries()) {
    const abs = inFolder(folder.abs, name);
    const rel = childPath(folder.rel, name);
    if (listing.links[nextLink] !== index) children.push({ abs, rel, linked: false });
    else {
      nextLink++;
      if (await isLinkToFolder(abs, rel, logger)) children.push({ abs, rel, linked: true });
    }
  }
  return { skill, children, diagnostics: NONE };
}

/**
 * The folder's earlier listing when its identity (taken before any listing, so that a change
 * during one is never missed) says nothing was added, removed or renamed in it since; else a
 * listing afresh. Either way `known` is told, for the next scan.
 */
function listKnown(folder: Folder, known: KnownFolders): FolderListing {
  const stats = lstatSync(folder.abs);
  const identity = folderIdentity(stats);
  const listing =
    (stats.isDirectory() && known.listingOf(folder.rel, identity)) ||
    listingOfEntries(readdirSync(folder.abs, { withFileTypes: true }));
  known.listed(folder.rel, identity, listing);
  return listing;
}

const NO_LINKS: readonly number[] = [];

/**
 * What the scan takes from a folder's directory entries, in one pass over them: a cold `list`
 * runs this for every folder of the catalog before the JIT has warmed up, where a filter, a
 * search per skill-file name and a map each cost a loop of their own.
 */
function listingOfEntries(entries: readonly Dirent[]): FolderListing {
  let skillFile: Dirent | undefined;
  /** The index in SKILL_FILES of skillFile's name: the spec's spelling wins. */
  let skillFileRank = SKILL_FILES.length;
  let candidates: Dirent[] | undefined;
  let links = false;
  for (const entry of entries) {
    const name = entry.name;
    const rank = SKILL_FILES.indexOf(name);
    if (rank !== -1 && rank < skillFileRank) {
      skillFile = entry;
      skillFileRank = rank;
    }
    const link = entry.isSymbolicLink();
    if ((link || entry.isDirectory()) && !SKIPPED_FOLDERS.has(name) && !isInstallStaging(name)) {
      (candidates ??= []).push(entry);
      links ||= link;
    }
  }
  const found = skillFile && { name: skillFile.name, kind: kindOf(skillFile) };
  // Most skill folders hold no sub-folder: nothing to sort, map or allocate for them.
  // A listing of its own each time: the scan tells a listing taken from an earlier scan by identity.
  if (candidates === undefined)
    return found ? { skillFile: found, children: NONE, links: NO_LINKS } : { children: NONE, links: NO_LINKS };
  // readdir order differs between filesystems; sorting keeps the walk, and the limit, deterministic.
  candidates.sort(byName);
  return {
    ...(found ? { skillFile: found } : {}),
    children: candidates.map((entry) => entry.name),
    links: links ? candidates.flatMap((entry, index) => (entry.isSymbolicLink() ? [index] : [])) : NO_LINKS,
  };
}

/** Whether a symlink leads to a folder; a broken link or a link to a file is ignored. */
async function isLinkToFolder(abs: string, rel: string, logger: Logger): Promise<boolean> {
  try {
    if ((await stat(abs)).isDirectory()) return true;
    logger.debug(`ignoring symlink ${rel}: it does not lead to a folder`);
  } catch (error) {
    logger.debug(`ignoring symlink ${rel}: ${errorMessage(error)}`);
  }
  return false;
}

/** Where a symlinked skill folder may lead: the real paths of these folders, or anywhere. */
type LinksWithin = readonly string[] | "anywhere";

/** The real paths of the folders links may lead into; a root that does not exist (yet) holds nothing. */
async function realRoots(sourceRoots: readonly string[] | undefined, realRoot: string): Promise<string[]> {
  if (sourceRoots === undefined) return [realRoot];
  const found = await Promise.all(sourceRoots.map((root) => realpath(root).catch(() => undefined)));
  return [realRoot, ...found.filter((root): root is string => root !== undefined && root !== realRoot)];
}

/**
 * Whether a linked folder's real path lies inside its source's roots, and not in a folder the
 * scan skips: a link anywhere else (`skills/steal -> ~/.claude/skills/private`, or `../../..`
 * climbing out of a git checkout) would serve a folder nobody put in the source.
 */
function isInSource(dir: string, within: LinksWithin): boolean {
  return within === "anywhere" || within.some((root) => dir === root || isServedFrom(dir, root));
}

async function visitLinkedFolder(
  folder: Folder,
  within: LinksWithin,
  logger: Logger,
  onDirectory: ScanOptions["onDirectory"],
): Promise<Visit> {
  let dir: string;
  let entries: Dirent[];
  try {
    dir = await realpath(folder.abs);
    if (!isInSource(dir, within)) return linkOut(folder);
    await onDirectory?.(dir);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    logger.debug(`ignoring symlink ${folder.rel}: ${errorMessage(error)}`);
    return NOTHING;
  }
  const skillFile = findSkillFile(entries);
  if (skillFile === undefined) {
    logger.debug(`not following symlink ${folder.rel}: ${dir} holds no SKILL.md`);
    return NOTHING;
  }
  return {
    skill: { path: folder.rel, dir, file: join(dir, skillFile.name), fileKind: kindOf(skillFile), linked: true },
    children: [],
    diagnostics: [],
  };
}

/**
 * A symlink to a folder already listed (a link to a sibling, or a loop such as `refs/up -> ..`)
 * would serve one skill twice under two paths: the folder's own path wins, else the first link.
 */
function dropDuplicateFolders(found: readonly SkillFolder[], logger: Logger): SkillFolder[] {
  if (!found.some((folder) => folder.linked)) return [...found].sort((a, b) => compare(a.path, b.path));
  const seen = new Set(found.filter((folder) => !folder.linked).map((folder) => folder.dir));
  const kept: SkillFolder[] = [];
  for (const folder of [...found].sort((a, b) => compare(a.path, b.path))) {
    if (!folder.linked) kept.push(folder);
    else if (seen.has(folder.dir)) logger.debug(`ignoring symlink ${folder.path}: ${folder.dir} is listed already`);
    else {
      seen.add(folder.dir);
      kept.push(folder);
    }
  }
  return kept;
}

function findSkillFile(entries: readonly Dirent[]): Dirent | undefined {
  for (const name of SKILL_FILES) {
    const entry = entries.find((candidate) => candidate.name === name);
    if (entry) return entry;
  }
  return undefined;
}

function kindOf(entry: Dirent): SkillFileKind {
  if (entry.isFile()) return "file";
  if (entry.isSymbolicLink()) return "link";
  return { notFile: describeKind(entry) };
}

/**
 * An entry's path in a folder: the folder's path is absolute and normalized (a real path, or one
 * built here) and an entry's name holds no separator, so path.join's normalizing pass (a tenth of
 * a warm scan's time in profiles) has nothing to do.
 */
function inFolder(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function childPath(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

function linkOut(folder: Folder): Visit {
  // The target is not named: a diagnostic reaches clients, and where a link leads is the disk's layout.
  const message = `${folder.rel} is a link out of its source's folders; it is not followed`;
  return { children: NONE, diagnostics: [{ severity: "warning", path: folder.rel, code: "link-out", message }] };
}

function scanError(path: string, message: string): PathDiagnostic {
  return { severity: "error", path, code: "scan-error", message };
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function byName(a: Dirent, b: Dirent): number {
  return compare(a.name, b.name);
}
