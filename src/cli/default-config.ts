import { resolve } from "node:path";
import type { SkillsKernelConfig } from "../kernel/config.js";
import { expandHome } from "../skills/files/paths.js";

/**
 * The folders Claude Code and other agents already use, project before user. The user's own
 * folders follow links anywhere (`ln -s ~/src/my-skill ~/.claude/skills/`); a project's, which a
 * cloned repository writes, only into its other folder.
 */
const DEFAULT_ROOTS = [
  { path: ".claude/skills", source: "project", optional: true },
  { path: ".agents/skills", source: "project", optional: true },
  { path: "~/.claude/skills", source: "user", optional: true, followLinksOut: true },
  { path: "~/.agents/skills", source: "user", optional: true, followLinksOut: true },
];

/**
 * What the CLI serves with no config file: the folders Claude Code and other agents already use,
 * project before user so a project's own skill wins over a personal one of the same name.
 */
export const EMBEDDED_DEFAULT_CONFIG: SkillsKernelConfig = {
  plugins: [
    ["fs", { roots: DEFAULT_ROOTS }],
    "list-skills",
    "search-skills",
    "read-skill",
    "fetch-skill-files",
    "validate-skill",
    "install-skill",
    "skill-resources",
    "skills-extension",
    "skill-prompts",
    "catalog-summary",
    "cache-stats",
    "usage",
  ],
};

/** The folders the embedded default serves, absolute: where `skills-kernel` with no flags looks. */
export function embeddedDefaultRoots(cwd: string, home: string): string[] {
  return DEFAULT_ROOTS.map((root) => resolve(cwd, expandHome(root.path, home)));
}
