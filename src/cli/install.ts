import { homedir } from "node:os";
import { resolve } from "node:path";
import { ToolInputError } from "../kernel/errors.js";
import type { SkillsKernel as Kernel } from "../create-kernel.js";
import { createInstaller, installOptionsSchema, SKILL_INSTALLER, type SkillInstaller } from "../plugins/install-skill/index.js";
import { renderInstall } from "../plugins/install-skill/render.js";
import { expandHome } from "../skills/paths.js";

export interface InstallCliOptions {
  /** "project", "user", or a folder (relative to the working directory, `~` to home). */
  readonly to: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly strict: boolean;
  readonly json: boolean;
  /** Folders a plain `skills-kernel` serves though this kernel does not (absolute). */
  readonly servedElsewhere?: readonly string[];
}

/**
 * `skills-kernel install NAME`: copies a served skill into a skills folder. Unlike the tool, it may
 * install into any folder (--to DIR): the person at the terminal chose it. Exit code 1 when the
 * install is refused or fails. The caller closes the kernel.
 */
export async function runInstall(kernel: Kernel, name: string, options: InstallCliOptions): Promise<number> {
  const installer = installerOf(kernel);
  const targetRoot =
    options.to === "project" || options.to === "user"
      ? installer.targets[options.to]
      : resolve(process.cwd(), expandHome(options.to, homedir()));
  try {
    const servedElsewhere = options.servedElsewhere?.includes(targetRoot) ?? false;
    const result = await installer.install({ skill: name, targetRoot, overwrite: options.force, dryRun: options.dryRun, strict: options.strict, servedElsewhere });
    process.stdout.write(`${options.json ? JSON.stringify(result, null, 2) : renderInstall(result)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    process.stderr.write(`skills-kernel: ${error.message.replace(/\s*\n\s*/g, " ")}\n`);
    return 1;
  }
}

/** The install-skill plugin's installer (its configured targets and limits), else one with its defaults. */
export function installerOf(kernel: Kernel): SkillInstaller {
  if (kernel.plugins.includes("install-skill")) return kernel.resolve(SKILL_INSTALLER);
  const defaults = installOptionsSchema.parse({});
  return createInstaller(kernel.catalog, defaults.targets, defaults, process.cwd());
}
