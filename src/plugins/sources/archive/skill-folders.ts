import { posix } from "node:path";
import type { ArchiveFile } from "../../../skills/archives/pack.js";

/** One skill folder of an archive: its path inside the archive ("" for the root) and its files by path relative to it. */
export interface ArchivedSkill {
  readonly path: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

const DOCUMENT = "SKILL.md";

/**
 * The skills an archive holds: the archive itself when SKILL.md is at its root, else every folder
 * holding a SKILL.md that no other such folder contains (a skill's own subfolders belong to it).
 * Files outside every skill folder are left out.
 */
export function skillFolders(files: readonly ArchiveFile[]): ArchivedSkill[] {
  const folders = files
    .filter((file) => posix.basename(file.path) === DOCUMENT)
    .map((file) => posix.dirname(file.path))
    .map((dir) => (dir === "." ? "" : dir))
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const outermost: string[] = [];
  for (const folder of folders) {
    if (!outermost.some((outer) => outer === "" || folder.startsWith(`${outer}/`))) outermost.push(folder);
  }
  return outermost.sort().map((folder) => {
    const prefix = folder === "" ? "" : `${folder}/`;
    const held = files
      .filter((file) => file.path.startsWith(prefix))
      .map((file) => [file.path.slice(prefix.length), file.bytes] as const);
    return { path: folder, files: new Map(held) };
  });
}
