import { posix } from "node:path";
import pLimit from "p-limit";
import { SKILL_FILES, SKIPPED_FOLDERS } from "../../../skills/files/folder-rules.js";
import { parseRemoteSkill } from "../../../remote/parse-skill.js";
import { toListing, type RemoteSkillFolder } from "../../../remote/remote-files.js";
import type { Diagnostic, ListedFile, SourceSkill } from "../../../skills/types.js";
import type { GitHubApi, GitHubTreeEntry } from "./api.js";

/** Regular files and executables; symlinks (120000) and submodules (160000) are never served. */
const SERVED_MODES = new Set(["100644", "100755"]);

export interface RepositoryScan {
  readonly skills: SourceSkill[];
  readonly diagnostics: Diagnostic[];
  /** By skill path (relative to the scanned folder). */
  readonly folders: Map<string, RemoteSkillFolder>;
  /** Each served file's tree entry, by skill path, then by path relative to the skill. */
  readonly blobs: Map<string, Map<string, GitHubTreeEntry>>;
}

export interface ScanSettings {
  readonly source: string;
  readonly owner: string;
  readonly repo: string;
  readonly commit: string;
  /** The folder of the repository scanned; "" for all of it. */
  readonly path: string;
  readonly maxDepth: number;
  readonly maxSkills: number;
  readonly concurrency: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
}

/**
 * The skills of one commit, found from its tree the way the fs source finds them on disk: folders
 * holding a SKILL.md (SKILL.md over skill.md), at most maxDepth below the folder, none under
 * node_modules or .git. Each SKILL.md is downloaded (once per blob id) and parsed like a local one.
 */
export async function scanRepository(
  api: GitHubApi,
  entries: readonly GitHubTreeEntry[],
  settings: ScanSettings,
  signal: AbortSignal,
): Promise<RepositoryScan> {
  const prefix = settings.path === "" ? "" : `${settings.path}/`;
  const documents = new Map<string, GitHubTreeEntry>();
  for (const entry of entries) {
    if (entry.type !== "blob" || !SERVED_MODES.has(entry.mode) || !entry.path.startsWith(prefix)) continue;
    const rel = entry.path.slice(prefix.length);
    const folder = posix.dirname(rel) === "." ? "" : posix.dirname(rel);
    const segments = folder === "" ? [] : folder.split("/");
    if (!SKILL_FILES.includes(posix.basename(rel)) || segments.length > settings.maxDepth) continue;
    if (segments.some((segment) => SKIPPED_FOLDERS.has(segment))) continue;
    const known = documents.get(folder);
    if (!known || SKILL_FILES.indexOf(posix.basename(entry.path)) < SKILL_FILES.indexOf(posix.basename(known.path)))
      documents.set(folder, entry);
  }
  const diagnostics: Diagnostic[] = [];
  let folders = [...documents.keys()].sort(
    (a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : a > b ? 1 : 0),
  );
  if (folders.length > settings.maxSkills) {
    diagnostics.push({
      severity: "error",
      source: settings.source,
      path: "",
      code: "scan-limit",
      message: `${settings.owner}/${settings.repo} holds ${folders.length} skill folders; only the first ${settings.maxSkills} are served (maxSkills)`,
    });
    folders = folders.slice(0, settings.maxSkills);
  }

  // Every served file belongs to each skill folder above it, as a local listing would show it.
  const skillFolders = new Set(folders);
  const files = new Map<string, ListedFile[]>(folders.map((folder) => [folder, []]));
  const blobs = new Map<string, Map<string, GitHubTreeEntry>>(folders.map((folder) => [folder, new Map()]));
  for (const entry of entries) {
    if (entry.type !== "blob" || !SERVED_MODES.has(entry.mode) || !entry.path.startsWith(prefix)) continue;
    const rel = entry.path.slice(prefix.length);
    const segments = rel.split("/");
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const folder = segments.slice(0, depth).join("/");
      if (!skillFolders.has(folder)) continue;
      const inner = segments.slice(depth).join("/");
      files.get(folder)!.push({ path: inner, size: entry.size ?? 0 });
      blobs.get(folder)!.set(inner, entry);
    }
  }

  const parsed = await pLimit(settings.concurrency).map(folders, async (folder) => {
    signal.throwIfAborted();
    const document = documents.get(folder)!;
    try {
      const bytes = await api.blob(settings.owner, settings.repo, settings.commit, document, signal);
      return parseRemoteSkill(
        bytes,
        {
          source: settings.source,
          path: folder,
          folderName: folder === "" ? posix.basename(settings.path) || settings.repo : undefined,
        },
        settings,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      const message = `cannot download ${document.path}: ${error instanceof Error ? error.message : String(error)}`;
      return {
        diagnostics: [
          { severity: "error" as const, source: settings.source, path: folder, code: "read-error", message },
        ],
      };
    }
  });
  const skills: SourceSkill[] = [];
  const served = new Map<string, RemoteSkillFolder>();
  folders.forEach((folder, index) => {
    const result = parsed[index]!;
    diagnostics.push(...result.diagnostics);
    if (!result.skill) return;
    skills.push(result.skill);
    served.set(folder, toListing(files.get(folder)!, posix.basename(documents.get(folder)!.path)));
  });
  return { skills, diagnostics, folders: served, blobs };
}
