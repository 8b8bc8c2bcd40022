import { homedir } from "node:os";
import { resolve } from "node:path";
import { ToolInputError } from "../kernel/errors.js";
import type { SkillsKernel as Kernel } from "../create-kernel.js";
import { redactCredentials } from "../plugins/git/spec.js";
import { renderInstall } from "../plugins/install-skill/render.js";
import type { InstallResult } from "../plugins/install-skill/install.js";
import { expandHome } from "../skills/paths.js";
import type { AddTarget } from "./add-target.js";
import { installerOf, reportRefusal, type InstallCliOptions } from "./install.js";

/**
 * `skills-kernel add`: installs skills straight from a repository, through the same checked, atomic
 * install as install_skill. The kernel serves the repository alone (as `--git` would). Exit code 1
 * when an install is refused or fails.
 */
export async function runAdd(kernel: Kernel, target: AddTarget, options: InstallCliOptions): Promise<number> {
  await kernel.catalog.ready();
  const failure = kernel.catalog.status().find((status) => status.source === target.source && status.error !== undefined);
  if (failure) {
    process.stderr.write(`skills-kernel: ${redactCredentials(target.repository)} cannot be read: ${failure.error}\n`);
    return 1;
  }
  const offered = kernel.catalog.list().filter((skill) => skill.source === target.source);
  const chosen = offered.filter((skill) => target.skill === undefined || skill.name === target.skill);
  if (chosen.length === 0) {
    const has = offered.length > 0 ? `; it has: ${offered.map((s) => s.name).join(", ")}` : "";
    const what = target.skill === undefined ? "no skills" : `no skill named "${target.skill}"`;
    process.stderr.write(`skills-kernel: ${redactCredentials(target.repository)} has ${what}${has}\n`);
    return 1;
  }
  const installer = installerOf(kernel);
  const targetRoot =
    options.to === "project" || options.to === "user" ? installer.targets[options.to] : resolve(process.cwd(), expandHome(options.to, homedir()));
  const results: InstallResult[] = [];
  let code = 0;
  for (const skill of chosen) {
    try {
      results.push(
        await installer.install({ skill: skill.qualifiedId, targetRoot, overwrite: options.force, dryRun: options.dryRun, strict: options.strict, allowRisky: options.allowRisky }),
      );
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      reportRefusal(error);
      code = 1;
    }
  }
  if (results.length > 0) process.stdout.write(`${options.json ? JSON.stringify(results, null, 2) : results.map(renderInstall).join("\n\n")}\n`);
  return code;
}
