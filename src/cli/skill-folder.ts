import { lstat, stat } from "node:fs/promises";
import { join } from "node:path";
import { createLogger } from "../kernel/logger.js";
import { createSkillFiles, scanRoot, type SkillFolder } from "../plugins/sources/fs/index.js";
import { SKILL_FILES } from "../skills/files/folder-rules.js";
import type { SkillReader } from "../skills/files/skill-reader.js";

export interface FoundSkill {
  readonly folder: SkillFolder;
  /** Its files as the fs source serves them: no links out, no names a request cannot spell. */
  readonly reader: SkillReader;
}

/**
 * The skills at `absolute` (a skill folder: that one alone) or under it, as a server on that
 * folder would find them; undefined when it is not a folder.
 */
export async function findSkills(
  absolute: string,
  walk: { maxDepth: number; maxDirectories: number },
): Promise<FoundSkill[] | undefined> {
  if (
    !(await stat(absolute).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return undefined;
  const isSkill = (
    await Promise.all(
      SKILL_FILES.map((name) =>
        lstat(join(absolute, name)).then(
          () => true,
          () => false,
        ),
      ),
    )
  ).includes(true);
  const scan = await scanRoot(absolute, {
    maxDepth: isSkill ? 0 : walk.maxDepth,
    maxDirectories: walk.maxDirectories,
    logger: createLogger("warn"),
    signal: new AbortController().signal,
  });
  const files = createSkillFiles();
  files.remember(scan.folders);
  return scan.folders.map((folder) => ({
    folder,
    reader: {
      readDocument: (maxBytes) => files.readDocument(folder.path, maxBytes),
      listFiles: (limit, signal) => files.listFiles(folder.path, limit, signal),
      readFile: (file, maxBytes) => files.readFile(folder.path, file, maxBytes),
    },
  }));
}
