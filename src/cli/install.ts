import { homedir } from "node:os";
import { resolve } from "node:path";
import { ToolInputError } from "../kernel/errors.js";
import type { SkillsKernel as Kernel } from "../create-kernel.js";
import { createInstaller, installOptionsSchema, SKILL_INSTALLER, type SkillInstaller } from "../plugins/install-skill/index.js";
import { renderInstall } from "../plugins/install-skill/render.js";
import { expandHome } from "../skills/paths.js";
import { RiskySkillError } from "../skills/audit/install-check.js";
import { renderFindings } from "../skills/audit/render.js";

export interface InstallCliOptions {
  /** "project", "user", or a folder (relative to the working directory, `~` to home). */
  readonly to: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly strict: boolean;
  readonly json: boolean;
  /** Install despite the audit's high findings. */
  readonly allowRisky?: boolean;
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
    const result = await installer.install({ skill: name, targetRoot, overwrite: options.force, dryRun: options.dryRun, strict: options.strict, servedElsewhere, allowRisky: options.allowRisky });
    process.stdout.write(`${options.json ? JSON.stringify(result, null, 2) : renderInstall(result)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    reportRefusal(error);
    return 1;
  }
}

/** A refused install in one line; an audit's refusal then lists its findings, one a line. */
export function reportRefusal(error: ToolInputError): void {
  if (error instanceof RiskySkillError) {
    const name = /^refusing to install ("[^"]*")/.exec(error.message)?.[1] ?? "the skill";
    const lines = [`skills-kernel: refusing to install ${name}: the audit found high-severity problems:`, ...renderFindings(error.findings)];
    lines.push("Read them, then install with --allow-risky if you trust it.");
    process.stderr.write(`${lines.join("\n")}\n`);
    return;
  }
  process.stderr.write(`skills-kernel: ${error.message.replace(/\s*\n\s*/g, " ")}\n`);
}

/** The install-skill plugin's installer (its configured targets and limits), else one with its defaults. */
export function installerOf(kernel: Kernel): SkillInstaller {
  if (kernel.plugins.includes("install-skill")) return kernel.resolve(SKILL_INSTALLER);
  const defaults = installOptionsSchema.parse({});
  return createInstaller(kernel.catalog, defaults.targets, defaults, process.cwd());
}
