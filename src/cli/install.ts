import { homedir } from "node:os";
import { resolve } from "node:path";
import { ConfigError, ToolInputError } from "../kernel/errors.js";
import { agentFolder, chooseAgents } from "../lifecycle/agents.js";
import { scopeFor } from "../lifecycle/project.js";
import type { SkillsKernel as Kernel } from "../create-kernel.js";
import { createInstaller, installOptionsSchema, type SkillInstaller } from "../lifecycle/installer.js";
import { renderInstall, SKILL_INSTALLER } from "../plugins/tools/install-skill/index.js";
import { expandHome } from "../skills/files/paths.js";
import { RiskySkillError } from "../skills/audit/install-check.js";
import { renderFindings } from "../skills/audit/render.js";
import { TOKENS } from "../tokens.js";
import type { CliIo } from "./io.js";

export interface InstallCliOptions {
  /** "project", "user", or a folder (relative to the working directory, `~` to home). */
  readonly to: string;
  /** --agent / --all-agents: these agents' folders instead of `to` (docs/agents.md). */
  readonly agents: readonly string[];
  readonly allAgents: boolean;
  readonly global: boolean;
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
export async function runInstall(kernel: Kernel, name: string, options: InstallCliOptions, io: CliIo): Promise<number> {
  const installer = installerOf(kernel, io.cwd);
  // A local caller, as for list and read: what the stdio plugin's identity may see.
  const catalog = kernel.catalogFor(kernel.resolveOptional(TOKENS.LocalCaller)?.identity);
  let code = 0;
  const results = [];
  for (const targetRoot of await targetRoots(installer, options, io.cwd)) {
    try {
      const result = await installer.install({
        skill: name,
        targetRoot,
        overwrite: options.force,
        dryRun: options.dryRun,
        strict: options.strict,
        servedElsewhere: options.servedElsewhere?.includes(targetRoot) ?? false,
        allowRisky: options.allowRisky,
        catalog,
      });
      results.push(result);
      // Counted as an install by the usage plugin, when the config has one (it writes at close).
      const installed = result.dry_run ? undefined : kernel.catalog.get(result.from);
      if (installed) kernel.resolveOptional(TOKENS.Usage)?.installed(installed);
      if (!options.json) io.stdout.write(`${renderInstall(result)}\n`);
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      reportRefusal(error, io);
      code = 1;
    }
  }
  // One agent (or --to) prints the result itself, as before; several print a list.
  if (options.json && results.length > 0)
    io.stdout.write(`${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`);
  return code;
}

/** The folders to install into: each chosen agent's, else --to's. */
async function targetRoots(installer: SkillInstaller, options: InstallCliOptions, cwd: string): Promise<string[]> {
  if (options.agents.length > 0 || options.allAgents) {
    if (options.to !== "project") throw new ConfigError("--to and --agent name the folder twice; give one");
    const scope = scopeFor(options.global, cwd);
    return [
      ...new Set(chooseAgents(options.agents, options.allAgents, scope).map((agent) => agentFolder(agent, scope))),
    ];
  }
  if (options.global) throw new ConfigError("--global goes with --agent or --all-agents; otherwise use --to user");
  return [
    options.to === "project" || options.to === "user"
      ? installer.targets[options.to]
      : resolve(cwd, expandHome(options.to, homedir())),
  ];
}

/** A refused install in one line; an audit's refusal then lists its findings, one a line. */
export function reportRefusal(error: ToolInputError, io: CliIo): void {
  if (error instanceof RiskySkillError) {
    const name = /^refusing to install ("[^"]*")/.exec(error.message)?.[1] ?? "the skill";
    const lines = [
      `skills-kernel: refusing to install ${name}: the audit found high-severity problems:`,
      ...renderFindings(error.findings),
    ];
    lines.push("Read them, then install with --allow-risky if you trust it.");
    io.stderr.write(`${lines.join("\n")}\n`);
    return;
  }
  io.stderr.write(`skills-kernel: ${error.message.replace(/\s*\n\s*/g, " ")}\n`);
}

/** The install-skill plugin's installer (its configured targets and limits), else one with its defaults. */
export function installerOf(kernel: Kernel, cwd: string): SkillInstaller {
  if (kernel.plugins.includes("install-skill")) return kernel.resolve(SKILL_INSTALLER);
  const defaults = installOptionsSchema.parse({});
  return createInstaller(kernel.catalog, defaults.targets, defaults, cwd);
}
