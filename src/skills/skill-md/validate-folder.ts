import { lstat, realpath } from "node:fs/promises";
import { basename, join } from "node:path";
import { errorMessage } from "../../kernel/errors.js";
import { SKILL_FILES } from "../files/folder-rules.js";
import { isWithin } from "../files/paths.js";
import { NotRegularFileError } from "../../lib/regular-file.js";
import { OutsideFolderError, readHead } from "../files/read-head.js";
import { validateSkillDocument, type SkillValidation, type SpecIssue } from "./skill-spec.js";
import type { CatalogSource } from "../types.js";

/** Enough of a SKILL.md to check its frontmatter and count well past 500 body lines. */
export const MAX_VALIDATED_BYTES = 1024 * 1024;

/**
 * Validates the skill in folder `dir` (an absolute path) straight from disk. Never throws: a folder
 * that cannot be read, or holds no readable SKILL.md, is an invalid skill with an error on "file".
 * A SKILL.md that is a symlink is read only when it stays inside `dir`, as the fs source does.
 * Messages name the folder as `shown` (the tool passes the path the agent gave, so that no answer
 * reveals where served folders or link targets are on disk) and fs errors by their code only.
 */
export async function validateSkillFolder(
  dir: string,
  folderName: string = basename(dir),
  shown: string = dir,
): Promise<SkillValidation> {
  const fileError = (message: string): SkillValidation => ({
    valid: false,
    errors: [{ field: "file", message }],
    warnings: [],
  });
  let realDir: string;
  try {
    realDir = await realpath(dir);
    if (!(await lstat(realDir)).isDirectory()) return fileError(`${shown} is not a folder`);
  } catch (error) {
    return fileError(`cannot read ${shown} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`);
  }

  const fileName = await findSkillFile(realDir);
  if (fileName === undefined) return fileError(`${shown} holds no SKILL.md`);
  const listed = join(realDir, fileName);
  let text: string;
  let truncated: boolean;
  try {
    const file = await realpath(listed);
    // Where a link leads stays unsaid: the tool answers agents, who must not learn the disk.
    if (!isWithin(file, realDir)) return fileError(`${fileName} leads outside the skill folder`);
    const head = await readHead(file, MAX_VALIDATED_BYTES, realDir);
    text = head.bytes.toString("utf8");
    truncated = head.truncated;
  } catch (error) {
    if (error instanceof NotRegularFileError) return fileError(`${fileName} is not a regular file but ${error.kind}`);
    if (error instanceof OutsideFolderError) return fileError(`${fileName} leads outside the skill folder`);
    return fileError(`cannot read ${fileName} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`);
  }

  const result = validateSkillDocument(text, folderName, { truncated });
  if (fileName === "SKILL.md") return result;
  const misnamed: SpecIssue = {
    field: "file",
    message: `is named ${fileName}; the spec names it SKILL.md, and clients on case-sensitive filesystems will not find it`,
  };
  return { ...result, warnings: [misnamed, ...result.warnings] };
}

/** SKILL.md, else the lowercase skill.md the fs source also accepts (its spelling wins). */
async function findSkillFile(dir: string): Promise<string | undefined> {
  for (const name of SKILL_FILES) {
    try {
      await lstat(join(dir, name));
      return name;
    } catch {
      // Absent or unreadable: try the next spelling; reading it will say what is wrong.
    }
  }
  return undefined;
}

export interface ServedRoot {
  readonly source: string;
  /** Real absolute path. */
  readonly root: string;
}

/** Every local folder the sources serve, symlinks resolved; a root that does not exist yet as configured. */
export async function servedRoots(sources: readonly CatalogSource[]): Promise<ServedRoot[]> {
  return Promise.all(
    sources.flatMap((source) =>
      (source.capabilities?.localFolders ?? []).map(async (root) => ({
        source: source.name,
        root: await realpath(root).catch(() => root),
      })),
    ),
  );
}
