import type { Dirent } from "node:fs";
import { basename, join } from "node:path";
import { SkillFileError } from "../../../kernel/errors.js";
import { checkRelativePath } from "../../../skills/files/skill-files.js";
import type {
  LeftOutFile,
  SkillFileContent,
  ListedFile,
  SkillFileListing,
  CatalogSource,
} from "../../../skills/types.js";
import {
  MAX_FILE_DEPTH,
  MAX_LISTED_ENTRIES,
  SKIPPED_FOLDERS,
  TOO_DEEP_REASON,
} from "../../../skills/files/folder-rules.js";
import { NotRegularFileError } from "../../../lib/regular-file.js";
import { ASYNC_CALLS, type FileCalls } from "../../../skills/files/file-calls.js";
import { type Head, OutsideFolderError, readHead, readHeadInPlace } from "../../../skills/files/read-head.js";
import { isServedFrom } from "../../../skills/files/served-path.js";
import { compare } from "../../../lib/compare.js";
import type { SkillFolder } from "./scan.js";

// Few enough stats in flight to leave file descriptors for everything else the server does.
const STAT_CONCURRENCY = 16;

/** The file access half of the fs source: what it serves of the skills its last load found. */
export interface SkillFiles extends Pick<CatalogSource, "readDocument" | "listFiles" | "readFile"> {
  /**
   * Replace the skills known with those of a load, in precedence order: when two roots of the
   * source hold the same path, the first (the one the catalog ranks first) is served.
   */
  remember(folders: readonly SkillFolder[]): void;
}

interface Candidate {
  /** Relative to the skill folder, POSIX separators. */
  readonly rel: string;
  readonly abs: string;
  readonly link: boolean;
}

/**
 * `calls`: how each file system call waits (see FileCalls); every check is made the same way
 * whichever they are.
 */
export function createSkillFiles(calls: FileCalls = ASYNC_CALLS): SkillFiles {
  let known = new Map<string, SkillFolder>();

  const folderOf = (skillPath: string, shown: string): SkillFolder => {
    const folder = known.get(skillPath);
    if (!folder)
      throw new SkillFileError(shown, `no skill at "${skillPath}" in this source (its last scan did not find one)`);
    return folder;
  };

  return {
    remember(folders) {
      const next = new Map<string, SkillFolder>();
      for (const folder of folders) if (!next.has(folder.path)) next.set(folder.path, folder);
      known = next;
    },

    async readDocument(skillPath, maxBytes) {
      const folder = folderOf(skillPath, "SKILL.md");
      const inPlace = await readHeadInPlace(folder.file, maxBytes, folder.dir, calls);
      return inPlace ? content(inPlace) : readInside(calls, folder.dir, folder.file, basename(folder.file), maxBytes);
    },

    async listFiles(skillPath, limit, signal) {
      const folder = folderOf(skillPath, ".");
      const { candidates, complete, leftOut } = await walk(calls, folder, signal);
      const files: ListedFile[] = [];
      let next = 0;
      while (files.length < limit && next < candidates.length) {
        signal?.throwIfAborted();
        // Never more in a batch than still fit: a file is stat'ed only if it could be listed.
        const batch = candidates.slice(next, next + Math.min(STAT_CONCURRENCY, limit - files.length));
        next += batch.length;
        const entries = await Promise.all(batch.map((candidate) => toEntry(calls, folder.dir, candidate)));
        entries.forEach((entry, index) => {
          if (entry) files.push(entry);
          else if (batch[index]!.link)
            leftOut.push({
              path: batch[index]!.rel,
              reason: "a link that leads out of the skill folder, or not to a file",
            });
        });
      }
      return {
        files,
        omitted: candidates.length - next,
        complete,
        ...(leftOut.length > 0 ? { leftOut } : {}),
      } satisfies SkillFileListing;
    },

    async readFile(skillPath, filePath, maxBytes) {
      const folder = folderOf(skillPath, filePath);
      const problem = checkRelativePath(filePath);
      if (problem) throw new SkillFileError(filePath, problem);
      const segments = filePath.split("/");
      if (segments.length > MAX_FILE_DEPTH + 1) {
        throw new SkillFileError(filePath, TOO_DEEP_REASON);
      }
      if (segments.slice(0, -1).some((segment) => SKIPPED_FOLDERS.has(segment))) {
        throw new SkillFileError(filePath, "files under node_modules or .git are not served");
      }
      const path = join(folder.dir, ...segments);
      const inPlace = await readHeadInPlace(path, maxBytes, folder.dir, calls);
      if (inPlace) return content(inPlace);
      await refuseLinkedFolders(calls, folder.dir, segments, filePath);
      return readInside(calls, folder.dir, path, filePath, maxBytes);
    },
  };
}

/**
 * The files a listing may show, sorted, found breadth first so that a cut walk keeps the files
 * nearest the top. Types come from the directory entries themselves: nothing is stat'ed here,
 * and FIFOs, sockets and devices are left out without being touched.
 */
async function walk(
  calls: FileCalls,
  folder: SkillFolder,
  signal: AbortSignal | undefined,
): Promise<{ candidates: Candidate[]; complete: boolean; leftOut: LeftOutFile[] }> {
  // The folder was real at the scan; were it a link now, the walk would list another folder's files.
  let real: string;
  try {
    real = await calls.realpath(folder.dir);
  } catch (error) {
    throw fileError(".", error);
  }
  if (real !== folder.dir) throw new SkillFileError(".", "the skill folder has been replaced since the last scan");
  const skillFile = basename(folder.file);
  const candidates: Candidate[] = [];
  const leftOut: LeftOutFile[] = [];
  let level = [{ abs: folder.dir, rel: "" }];
  let read = 0;
  let complete = true;
  for (let depth = 0; level.length > 0 && read < MAX_LISTED_ENTRIES; depth++) {
    const below: { abs: string; rel: string }[] = [];
    for (const dir of level) {
      signal?.throwIfAborted();
      let entries: AsyncIterable<Dirent> | Iterable<Dirent>;
      try {
        entries = await calls.entries(dir.abs);
      } catch (error) {
        if (depth === 0) throw fileError(".", error);
        continue; // An unreadable sub-folder only hides its own files.
      }
      // Breaking out of the loop closes the folder; so does reading to the end.
      for await (const entry of entries) {
        if (++read > MAX_LISTED_ENTRIES) break;
        if (depth === 0 && entry.name === skillFile) continue;
        const rel = dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`;
        // A name no request could spell is never listed, so every listed path can be fetched.
        const unspellable = checkRelativePath(rel);
        if (unspellable !== undefined) {
          leftOut.push({ path: rel, reason: unspellable });
          continue;
        }
        const abs = join(dir.abs, entry.name);
        if (entry.isDirectory()) {
          if (SKIPPED_FOLDERS.has(entry.name))
            leftOut.push({ path: `${rel}/`, reason: "node_modules and .git folders are not served" });
          else if (depth < MAX_FILE_DEPTH) below.push({ abs, rel });
          else complete = false;
        } else if (entry.isFile()) candidates.push({ rel, abs, link: false });
        else if (entry.isSymbolicLink()) candidates.push({ rel, abs, link: true });
        else leftOut.push({ path: rel, reason: "not a regular file (a FIFO, socket or device)" });
      }
      if (read > MAX_LISTED_ENTRIES) {
        complete = false;
        break;
      }
    }
    // Directory order differs between filesystems; sorted, the walk and its cut are the same everywhere.
    level = below.sort((a, b) => compare(a.rel, b.rel));
  }
  return { candidates: candidates.sort((a, b) => compare(a.rel, b.rel)), complete, leftOut };
}

/**
 * The entry for a listed file, or undefined when it is not one to serve. A symlink is listed
 * only when its target is a regular file inside the skill folder; a symlinked folder is never
 * descended, as in the scan, so link loops cannot loop.
 */
async function toEntry(calls: FileCalls, dir: string, candidate: Candidate): Promise<ListedFile | undefined> {
  try {
    let target = candidate.abs;
    if (candidate.link) {
      target = await calls.realpath(candidate.abs);
      if (!isServedFrom(target, dir)) return undefined;
    }
    // lstat: a regular file that turned into a symlink since the walk is left out, not followed.
    const stats = await (candidate.link ? calls.stat(target) : calls.lstat(target));
    return stats.isFile() ? { path: candidate.rel, size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
  } catch {
    return undefined; // Gone since the walk, or a broken link.
  }
}

/**
 * Listings never descend a symlinked folder, so nothing under one is served; refusing it before
 * resolving the rest keeps the answer the same whether or not the file exists out there.
 */
async function refuseLinkedFolders(
  calls: FileCalls,
  dir: string,
  segments: readonly string[],
  shown: string,
): Promise<void> {
  for (let i = 1; i < segments.length; i++) {
    let linked: boolean;
    try {
      linked = (await calls.lstat(join(dir, ...segments.slice(0, i)))).isSymbolicLink();
    } catch {
      return; // Missing inside the skill folder: the read says "no such file", which tells nothing outside.
    }
    if (linked) throw new SkillFileError(shown, "is inside a linked folder, whose files are not served");
  }
}

/**
 * Reads `path`, at most `maxBytes` of it, if its real path (every symlink resolved) is a regular
 * file inside `dir` (what readHeadInPlace could not read: a link, or a file that is none). Errors name the file as the agent asked for it, never its place on disk.
 */
async function readInside(
  calls: FileCalls,
  dir: string,
  path: string,
  shown: string,
  maxBytes: number,
): Promise<SkillFileContent> {
  let real: string;
  try {
    real = await calls.realpath(path);
  } catch (error) {
    throw fileError(shown, error);
  }
  if (!isServedFrom(real, dir)) throw new SkillFileError(shown, "leads outside the skill folder");
  try {
    return content(await readHead(real, maxBytes, dir, calls));
  } catch (error) {
    if (error instanceof NotRegularFileError)
      throw new SkillFileError(shown, `is not a regular file but ${error.kind}`);
    if (error instanceof OutsideFolderError) throw new SkillFileError(shown, "leads outside the skill folder");
    throw fileError(shown, error);
  }
}

function content(head: Head): SkillFileContent {
  return { bytes: head.bytes, size: head.size, truncated: head.truncated, mtimeMs: head.mtimeMs };
}

function fileError(shown: string, error: unknown): SkillFileError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new SkillFileError(shown, "no such file");
    case "EACCES":
    case "EPERM":
      return new SkillFileError(shown, "permission denied");
    case "ELOOP":
      return new SkillFileError(shown, "too many levels of symlinks");
    case "ENAMETOOLONG":
      return new SkillFileError(shown, "the path is too long");
    default:
      // The message of an fs error holds the absolute path; only its code reaches the agent.
      return new SkillFileError(shown, `cannot be read (${code ?? "unknown error"})`);
  }
}
