import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { z } from "zod";
import { definePlugin } from "../../kernel/config.js";
import { errorMessage, PluginError } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import { groupRoots, type ResolvedRoot } from "./roots.js";
import { createFsSource } from "./source.js";

const KiB = 1024;

// Strict objects: a misspelt option (`maxdepth`) is a config error, not a silently ignored key.
const rootSchema = z.union([
  z.string().min(1),
  z.strictObject({
    path: z.string().min(1),
    /** Roots with the same source form one source, in the order given. */
    source: z.string().min(1).optional(),
    /** A missing optional root is skipped instead of failing the boot (e.g. ~/.claude/skills). */
    optional: z.boolean().optional(),
  }),
]);

export const fsOptionsSchema = z.strictObject({
  /** Folders to scan; relative paths resolve against the config file's folder, `~` to home. */
  roots: z.array(rootSchema).min(1),
  /** Folder levels below each root to scan; 0 looks at the root folder alone. */
  maxDepth: z.number().int().min(0).default(6),
  /** Folders visited per root before the scan stops with a "scan-limit" diagnostic. */
  maxDirectories: z.number().int().min(1).default(20_000),
  /** Larger frontmatter is refused before parsing: YAML parsing time grows faster than size. */
  maxFrontmatterBytes: z.number().int().min(1).default(64 * KiB),
  /** The head of each SKILL.md that is read; the frontmatter must close within it. */
  maxSkillFileBytes: z.number().int().min(1).default(256 * KiB),
});

/** Serves the skills found in folders on disk, one skill source per `source` name. */
export default definePlugin({
  name: "fs",
  options: fsOptionsSchema,
  async setup(ctx, options) {
    const { roots: configured, ...limits } = options;
    // Every root is checked, in the order configured, before any source is added: a bad root
    // fails the boot cleanly, and the error always names the first bad one.
    const sources: { name: string; roots: string[] }[] = [];
    for (const group of groupRoots(configured, ctx.baseDir, homedir())) {
      const roots: string[] = [];
      for (const root of group.roots) if (await checkRoot(root, ctx.logger)) roots.push(root.path);
      if (roots.length > 0) sources.push({ name: group.source, roots });
    }
    for (const { name, roots } of sources) {
      ctx.addSkillSource(createFsSource({ name, roots, ...limits, logger: ctx.logger }));
    }
  },
});

/** True when the root is a folder; false for an optional root that is not; throws otherwise. */
async function checkRoot(root: ResolvedRoot, logger: Logger): Promise<boolean> {
  let problem: string;
  try {
    if ((await stat(root.path)).isDirectory()) return true;
    problem = "is not a directory";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problem = code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be read: ${errorMessage(error)}`;
  }
  if (root.optional) {
    logger.debug(`skipping optional root ${root.path}: it ${problem}`);
    return false;
  }
  throw new PluginError("fs", `root ${root.path} ${problem}`, 2);
}
