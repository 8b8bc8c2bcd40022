import { lockPath } from "../../lifecycle/lock-file.js";
import { agentById } from "../../lifecycle/agents.js";
import { checkSkillForAgents, describeProblem, type HostProblem } from "../../lifecycle/host-check.js";
import { installedRows, type InstalledRow } from "../../lifecycle/report.js";
import type { CliArgs } from "../args.js";
import { short, type LifecycleContext } from "./context.js";

/**
 * `skills-kernel installed`: each skill of the lock, its agents, source, ref, commit and state.
 * With --check, also what each agent will actually load, exiting 1 when one would miss a skill.
 */
export async function runInstalled(args: CliArgs, context: LifecycleContext): Promise<number> {
  const rows = await installedRows(context.scope);
  if (args.check) return runCheck(rows, args, context);
  if (args.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`No skills recorded in ${lockPath(context.scope)}; add one with: skills-kernel add SOURCE\n`);
    return 0;
  }
  for (const row of rows) {
    const at = row.commit ? ` at ${short(row.commit)}` : row.version ? ` version ${row.version}` : "";
    const ref = row.ref && !row.source.includes("#") ? `#${row.ref}` : "";
    const detail =
      row.state === "missing"
        ? ` (missing for ${row.missing_for.join(", ") || "every agent"})`
        : row.state === "modified"
          ? ` (${row.differing.join(", ")})`
          : "";
    const by = row.installed_by === "npx skills" ? " [installed by npx skills]" : "";
    process.stdout.write(
      `${row.name}  ${row.state}${detail}  ${row.agents.join(", ") || "-"}  ${row.source}${ref}${at}${by}\n`,
    );
  }
  return 0;
}

async function runCheck(rows: readonly InstalledRow[], args: CliArgs, context: LifecycleContext): Promise<number> {
  const problems: HostProblem[] = [];
  for (const row of rows)
    problems.push(
      ...(await checkSkillForAgents(
        row.name,
        row.agents.map((id) => agentById(id)!),
        context.scope,
      )),
    );
  if (args.json) process.stdout.write(`${JSON.stringify(problems, null, 2)}\n`);
  else if (problems.length === 0) process.stdout.write(`Every agent will load every skill (${rows.length} checked).\n`);
  else for (const problem of problems) process.stdout.write(`${describeProblem(problem)}\n`);
  return problems.length > 0 ? 1 : 0;
}
