import type { SkillsKernelConfig } from "../kernel/config.js";

/**
 * What the CLI serves with no config file: the folders Claude Code and other agents already use,
 * project before user so a project's own skill wins over a personal one of the same name.
 */
export const EMBEDDED_DEFAULT_CONFIG: SkillsKernelConfig = {
  plugins: [
    [
      "fs",
      {
        roots: [
          { path: ".claude/skills", source: "project", optional: true },
          { path: ".agents/skills", source: "project", optional: true },
          { path: "~/.claude/skills", source: "user", optional: true },
          { path: "~/.agents/skills", source: "user", optional: true },
        ],
      },
    ],
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
  ],
};
