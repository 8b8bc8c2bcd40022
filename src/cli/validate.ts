import { lstat, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import pLimit from "p-limit";
import { createLogger } from "../kernel/logger.js";
import type { SkillValidation } from "../skills/skill-md/skill-spec.js";
import { fsOptionsSchema, scanRoot } from "../plugins/sources/fs/index.js";
import { plural, renderValidation } from "../plugins/tools/validate-skill/index.js";
import { SKILL_FILES } from "../skills/files/folder-rules.js";
import { validateSkillFolder } from "../skills/skill-md/validate-folder.js";
import type { CliIo } from "./io.js";

export interface ValidateCliOptions {
  readonly json: boolean;
}

interface Checked extends SkillValidation {
  /** As given on the command line, joined with the skill's path below it. */
  readonly path: string;
}

// The fs plugin's own walk limits, so `validate DIR` finds exactly the skills a server on DIR serves.
const { maxDepth, maxDirectories } = fsOptionsSchema.parse({ roots: ["."] });
const CONCURRENCY = 16;

/**
 * `skills-kernel validate PATH...`: checks skills on disk against the Agent Skills spec, with no
 * config and no kernel, so a skills repository can run it in CI. A PATH holding a SKILL.md (or a
 * SKILL.md itself) is one skill; any other folder is scanned for skill folders as the fs source
 * scans a root. Exit code: 0 all valid, 1 any invalid (or a folder with no skill), 2 a PATH that
 * does not exist.
 */
export async function runValidate(paths: readonly string[], options: ValidateCliOptions, io: CliIo): Promise<number> {
  const cwd = io.cwd;
  const kinds = await Promise.all(paths.map((path) => kindOf(resolve(cwd, path))));
  let usageError = false;
  kinds.forEach((kind, index) => {
    if (kind === "missing" || kind === "other") {
      const what = kind === "missing" ? "does not exist" : "is neither a folder nor a SKILL.md";
      io.stderr.write(`skills-kernel: ${paths[index]} ${what}\n`);
      usageError = true;
    }
  });
  if (usageError) return 2;

  const checked: Checked[] = [];
  for (const [index, path] of paths.entries()) {
    const absolute = resolve(cwd, path);
    const kind = kinds[index];
    if (kind === "skill-file") checked.push({ path, ...(await validateSkillFolder(dirname(absolute))) });
    else if (kind === "skill-folder") checked.push({ path, ...(await validateSkillFolder(absolute)) });
    else checked.push(...(await validateTree(path, absolute)));
  }

  const invalid = checked.filter((skill) => !skill.valid).length;
  if (options.json) {
    const report = { valid: invalid === 0, checked: checked.length, invalid, skills: checked };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const errors = checked.reduce((sum, skill) => sum + skill.errors.length, 0);
    const warnings = checked.reduce((sum, skill) => sum + skill.warnings.length, 0);
    const lines = checked.map((skill) => renderValidation(skill.path, skill));
    lines.push(
      "",
      `${plural(checked.length, "skill")} checked: ${checked.length - invalid} valid, ${invalid} invalid ` +
        `(${plural(errors, "error")}, ${plural(warnings, "warning")})`,
    );
    io.stdout.write(`${lines.join("\n")}\n`);
  }
  return invalid > 0 ? 1 : 0;
}

type PathKind = "missing" | "other" | "skill-file" | "skill-folder" | "folder";

async function kindOf(path: string): Promise<PathKind> {
  let stats;
  try {
    stats = await stat(path);
  } catch {
    return "missing";
  }
  if (stats.isFile()) return SKILL_FILES.includes(basename(path)) ? "skill-file" : "other";
  if (!stats.isDirectory()) return "other";
  for (const name of SKILL_FILES) {
    if (
      await lstat(join(path, name)).then(
        () => true,
        () => false,
      )
    )
      return "skill-folder";
  }
  return "folder";
}

/** Every skill folder under `absolute`, nested ones included, each checked on its own. */
async function validateTree(shown: string, absolute: string): Promise<Checked[]> {
  const scan = await scanRoot(absolute, {
    maxDepth,
    maxDirectories,
    logger: createLogger("warn"),
    signal: new AbortController().signal,
  });
  // A warning (skills below maxDepth) says what a server would not serve; it invalidates nothing.
  const problems: Checked[] = scan.diagnostics.map((diagnostic) => {
    const issue = [{ field: "folder", message: diagnostic.message }];
    const warning = diagnostic.severity === "warning";
    return {
      path: diagnostic.path === "" ? shown : join(shown, diagnostic.path),
      valid: warning,
      errors: warning ? [] : issue,
      warnings: warning ? issue : [],
    };
  });
  if (scan.folders.length === 0 && problems.length === 0) {
    problems.push({
      path: shown,
      valid: false,
      errors: [{ field: "folder", message: "holds no skill (no SKILL.md at any depth)" }],
      warnings: [],
    });
  }
  // Checked at the path scanned, not the symlink's target: the folder's name there is what clients see.
  const skills = await pLimit(CONCURRENCY).map(
    scan.folders,
    async (folder): Promise<Checked> => ({
      path: join(shown, folder.path),
      ...(await validateSkillFolder(join(absolute, ...folder.path.split("/").filter(Boolean)))),
    }),
  );
  return [...problems, ...skills];
}
