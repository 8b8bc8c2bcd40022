import { realpath, stat } from "node:fs/promises";
import { basename, posix } from "node:path";
import { errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import type { Diagnostic, SkillSource, SourceSkill, SourceSnapshot } from "../../skills/types.js";
import { isInside } from "../../skills/paths.js";
import { createSkillFiles } from "./files.js";
import { mapLimit } from "./map-limit.js";
import { NotRegularFileError, OutsideFolderError, readHead, type Head } from "./read-head.js";
import { compare, scanRoot, type PathDiagnostic, type SkillFolder } from "./scan.js";
import { watchRoots } from "./watch.js";
import { parseSkillMd, type SkillMdIssue } from "../../skills/skill-md.js";

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
}

// Enough reads in flight to keep the filesystem busy while files are parsed; few enough that a
// folder of thousands of skills never runs out of file descriptors.
const READ_CONCURRENCY = 16;

/**
 * A skill source over folders on disk. Each load scans and reads afresh, so it can be called again
 * whenever the folders change; the only state kept is where the last load found each skill, the
 * folders its files are served from.
 */
export function createFsSource(settings: FsSourceSettings): SkillSource {
  const files = createSkillFiles();
  return {
    name: settings.name,
    description: settings.roots.join(", "),
    capabilities: { localFolders: settings.roots },
    async load(signal: AbortSignal): Promise<SourceSnapshot> {
      const perRoot = await Promise.all(settings.roots.map((root, rank) => loadRoot(settings, root, rank, signal)));
      files.remember(perRoot.flatMap((root) => root.folders));
      return {
        skills: perRoot.flatMap((root) => root.skills).sort((a, b) => compare(a.path, b.path) || a.rank - b.rank),
        // A stable sort: within one path, diagnostics keep root order, then the order found.
        diagnostics: perRoot.flatMap((root) => root.diagnostics).sort((a, b) => compare(a.path, b.path)),
      };
    },
    readDocument: files.readDocument,
    listFiles: files.listFiles,
    readFile: files.readFile,
    watch: (onChange) => (settings.watch ? watchRoots(settings, onChange) : () => {}),
  };
}

interface RootSnapshot {
  readonly skills: SourceSkill[];
  readonly diagnostics: Diagnostic[];
  /** The folders of the skills loaded; a skipped skill's folder is not served. */
  readonly folders: SkillFolder[];
}

async function loadRoot(settings: FsSourceSettings, root: string, rank: number, signal: AbortSignal): Promise<RootSnapshot> {
  const stamp = (diagnostic: PathDiagnostic): Diagnostic => ({ ...diagnostic, source: settings.name });
  const { maxDepth, maxDirectories, logger } = settings;
  if (settings.optionalRoots?.includes(root) && (await isMissing(root))) return { skills: [], diagnostics: [], folders: [] };
  const scan = await scanRoot(root, { maxDepth, maxDirectories, logger, signal });
  const read = await mapLimit(scan.folders, READ_CONCURRENCY, (folder) => readSkill(settings, folder, rank), signal);
  return {
    skills: read.flatMap((result) => (result.skill ? [result.skill] : [])),
    diagnostics: [...scan.diagnostics, ...read.flatMap((result) => result.diagnostics)].map(stamp),
    folders: scan.folders.filter((_folder, index) => read[index]!.skill !== undefined),
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

interface SkillRead {
  readonly skill?: SourceSkill;
  readonly diagnostics: readonly PathDiagnostic[];
}

async function readSkill(settings: FsSourceSettings, folder: SkillFolder, rank: number): Promise<SkillRead> {
  const skipped = (issue: SkillMdIssue): SkillRead => ({ diagnostics: [{ severity: "error", path: folder.path, ...issue }] });

  let head: Head;
  try {
    // A SKILL.md may be a symlink, but only to a file within its own skill folder: otherwise
    // any file the server can read (~/.ssh/config) could be served as a skill.
    const file = await realpath(folder.file);
    if (!isInside(file, folder.dir)) {
      return skipped({ code: "outside-skill", message: `${folder.file} leads to ${file}, outside the skill folder` });
    }
    head = await readHead(file, settings.maxSkillFileBytes, folder.dir);
  } catch (error) {
    if (error instanceof NotRegularFileError) return skipped({ code: "not-regular-file", message: error.message });
    if (error instanceof OutsideFolderError) {
      return skipped({ code: "outside-skill", message: `${folder.file} leads outside the skill folder` });
    }
    return skipped({ code: "read-error", message: `cannot read ${folder.file}: ${errorMessage(error)}` });
  }

  const result = parseSkillMd(head.bytes.toString("utf8"), {
    // The root's own folder name when the root itself is the skill.
    folderName: folder.path === "" ? basename(folder.dir) : posix.basename(folder.path),
    maxFrontmatterBytes: settings.maxFrontmatterBytes,
    truncated: head.truncated,
  });
  if (!result.ok) return skipped(result.error);
  const { name, description, frontmatter, warnings, excerpt } = result.skill;
  return {
    skill: { name, description, path: folder.path, frontmatter, excerpt, rank },
    diagnostics: warnings.map((issue) => ({ severity: "warning", path: folder.path, ...issue })),
  };
}
