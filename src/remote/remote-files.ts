import { errorMessage, SkillFileError } from "../kernel/errors.js";
import { compare } from "../lib/compare.js";
import { MAX_FILE_DEPTH, MAX_LISTED_ENTRIES, SKIPPED_FOLDERS, TOO_DEEP_REASON } from "../skills/files/folder-rules.js";
import { checkRelativePath } from "../skills/files/skill-files.js";
import type { SkillFileContent, ListedFile, CatalogSource, LeftOutFile } from "../skills/types.js";

/** A remote skill folder as its source's listing describes it. */
export interface RemoteSkillFolder {
  /** The SKILL.md's own name in the folder (SKILL.md or skill.md). */
  readonly document: string;
  /** Sorted by path; only paths a request could spell. */
  readonly files: readonly ListedFile[];
  /** False when the folder held more than a listing keeps. */
  readonly complete: boolean;
  /** What the listing leaves out of the index's paths, and why. */
  readonly leftOut: readonly LeftOutFile[];
}

/** Downloads one file of a skill folder (`file` relative to it), whole or refused. */
export type RemoteFileReader = (skillPath: string, file: string, signal?: AbortSignal) => Promise<Uint8Array>;

export interface RemoteFiles extends Pick<CatalogSource, "readDocument" | "listFiles" | "readFile"> {
  /** The folders of the last load, by skill path. */
  remember(folders: ReadonlyMap<string, RemoteSkillFolder>): void;
}

/**
 * The file half of a remote source. Only files its listing named are ever fetched, so the
 * listing's path rules (the same as local skills') hold for every read.
 */
export function createRemoteFiles(reader: RemoteFileReader): RemoteFiles {
  // A server that fails is the agent's to hear about, as a reason on the file, not an internal error.
  const read = async (skillPath: string, file: string, signal?: AbortSignal) => {
    try {
      return await reader(skillPath, file, signal);
    } catch (error) {
      if (error instanceof SkillFileError || signal?.aborted) throw error;
      throw new SkillFileError(file, `could not be downloaded: ${errorMessage(error)}`);
    }
  };
  let known: ReadonlyMap<string, RemoteSkillFolder> = new Map();
  const folderOf = (skillPath: string, shown: string) => {
    const folder = known.get(skillPath);
    if (!folder)
      throw new SkillFileError(shown, `no skill at "${skillPath}" in this source (its last load did not list one)`);
    return folder;
  };
  const slice = (bytes: Uint8Array, maxBytes: number): SkillFileContent => ({
    bytes: bytes.subarray(0, maxBytes),
    size: bytes.length,
    truncated: bytes.length > maxBytes,
  });
  return {
    remember(folders) {
      known = folders;
    },
    async readDocument(skillPath, maxBytes, signal) {
      const folder = folderOf(skillPath, "SKILL.md");
      return slice(await read(skillPath, folder.document, signal), maxBytes);
    },
    async listFiles(skillPath, limit) {
      const folder = folderOf(skillPath, ".");
      const files = folder.files.slice(0, limit);
      return {
        files,
        omitted: folder.files.length - files.length,
        complete: folder.complete,
        ...(folder.leftOut.length > 0 ? { leftOut: folder.leftOut } : {}),
      };
    },
    async readFile(skillPath, filePath, maxBytes, signal) {
      const folder = folderOf(skillPath, filePath);
      const problem = checkRelativePath(filePath);
      if (problem) throw new SkillFileError(filePath, problem);
      if (!folder.files.some((file) => file.path === filePath)) throw new SkillFileError(filePath, "no such file");
      return slice(await read(skillPath, filePath, signal), maxBytes);
    },
  };
}

/**
 * A folder's listing from the paths a remote index gives (relative to the skill folder): those no
 * request could spell, those under node_modules or .git and those too deep are left out, as a
 * local listing leaves them out; past MAX_LISTED_ENTRIES the listing is marked incomplete.
 */
export function toListing(entries: readonly ListedFile[], document: string): RemoteSkillFolder {
  const files: ListedFile[] = [];
  const leftOut: LeftOutFile[] = [];
  for (const entry of entries) {
    if (entry.path === document) continue;
    const segments = entry.path.split("/");
    const reason =
      checkRelativePath(entry.path) ??
      (segments.slice(0, -1).some((segment) => SKIPPED_FOLDERS.has(segment))
        ? "node_modules and .git folders are not served"
        : segments.length > MAX_FILE_DEPTH + 1
          ? TOO_DEEP_REASON
          : undefined);
    if (reason === undefined) files.push(entry);
    else leftOut.push({ path: entry.path, reason });
  }
  files.sort((a, b) => compare(a.path, b.path));
  leftOut.sort((a, b) => compare(a.path, b.path));
  return {
    document,
    files: files.slice(0, MAX_LISTED_ENTRIES),
    complete: files.length <= MAX_LISTED_ENTRIES,
    leftOut: leftOut.slice(0, MAX_LISTED_ENTRIES),
  };
}
