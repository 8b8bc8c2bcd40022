import { homedir } from "node:os";
import { resolve } from "node:path";
import { z } from "zod";
import type { WholeCatalog } from "../skills/catalog/catalog.js";
import { expandHome } from "../skills/files/paths.js";
import { MiB } from "../skills/files/skill-files.js";
import { installSkill, type InstallLimits, type InstallRequest, type InstallResult } from "./install.js";

const DEFAULT_TARGETS = { project: ".claude/skills", user: "~/.claude/skills" } as const;

// Strict objects, as in the fs plugin: a misspelt option is a config error, not an ignored key.
export const installOptionsSchema = z.strictObject({
  /** Where each target installs; relative paths resolve against the config file's folder, `~` to home. */
  targets: z
    .strictObject({
      project: z.string().min(1).default(DEFAULT_TARGETS.project),
      user: z.string().min(1).default(DEFAULT_TARGETS.user),
    })
    .prefault({}),
  /** Files per skill, SKILL.md not counted; a larger skill is refused. */
  maxFiles: z.number().int().min(1).default(5_000),
  /** Bytes per skill, SKILL.md included; a larger skill is refused. */
  maxBytes: z
    .number()
    .int()
    .min(1)
    .default(100 * MiB),
  /** Copy files named like credentials (.env, *.pem…) too; they are left out, and listed in left_out, otherwise. */
  includeSecretFiles: z.boolean().default(false),
  /** Hosts add_skill may fetch from for a caller over HTTP although they are loopback or private addresses. */
  privateHosts: z.array(z.string().min(1).toLowerCase()).default([]),
});

export type InstallTarget = "project" | "user";

/** Installs skills: the install-skill plugin's tool, the CLI's `install` (--to DIR) and staging for `add`. */
export interface SkillInstaller {
  /** Absolute folders. */
  readonly targets: Readonly<Record<InstallTarget, string>>;
  install(request: InstallRequest): Promise<InstallResult>;
}

export function createInstaller(
  catalog: WholeCatalog,
  targets: Readonly<Record<InstallTarget, string>>,
  limits: InstallLimits,
  baseDir: string,
): SkillInstaller {
  const home = homedir();
  const resolved = {
    project: resolve(baseDir, expandHome(targets.project, home)),
    user: resolve(baseDir, expandHome(targets.user, home)),
  };
  return { targets: resolved, install: (request) => installSkill(catalog, limits, request) };
}
