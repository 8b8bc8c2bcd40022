import { lockPath } from "../../lifecycle/lock-file.js";
import { agentById, chooseAgents } from "../../lifecycle/agents.js";
import { checkSkillForAgents, describeProblem, type HostProblem } from "../../lifecycle/host-check.js";
import { installedRows, type InstalledRow } from "../../lifecycle/report.js";
import type { CliArgs } from "../args.js";
import { short, type LifecycleContext } from "./context.js";

/**
 * `skills-kernel installed`: each skill of the lock, its agents, source, ref, commit and state.
 * With --check, also what each agent will actually load, exiting 1 when one would miss a skill.
 */
export async function runInstalled(args: CliArgs, context: LifecycleContext): Promise<number> {
  const named = args.agents.length > 0 ? chooseAgents(args.agents, false, context.scope) : [];
  const wanted = new Set(named.map((agent) => agent.id));
  // --agent (npx skills' `ls -a`): the skills that agent sees, through any folder it reads.
  const rows = (await installedRows(context.scope)).filter(
    (row) => wanted.size === 0 || row.folders.some(({ readBy }) => readBy.some((id) => wanted.has(id))),
  );
  if (args.check) return runCheck(rows, args, context);
  if (args.json) {
    context.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    context.io.stdout.write(
      wanted.size > 0
        ? `No skill recorded in ${lockPath(context.scope)} is seen by ${[...wanted].join(", ")}\n`
        : `No skills recorded in ${lockPath(context.scope)}; add one with: skills-kernel add SOURCE\n`,
    );
    return 0;
  }
  for (const row of rows) {
    const at = row.commit ? ` at ${short(row.commit)}` : row.version ? ` version ${row.version}` : "";
    const ref = row.ref && !row.source.includes("#") ? `#${row.ref}` : "";
    const detail =
      row.state === "missing"
        ? ` (missing for ${row.missingFor.join(", ") || "every agent"})`
        : row.state === "modified"
          ? ` (${row.differing.join(", ")})`
          : "";
    const by = row.installedBy === "npx skills" ? " [installed by npx skills]" : "";
    context.io.stdout.write(
      `${row.name}  ${row.state}${detail}  ${row.agents.join(", ") || "-"}  ${row.source}${ref}${at}${by}\n`,
    );
  }
  // An agent sees every skill in the folder it reads, whoever it was installed for.
  const readers = new Map(rows.flatMap((row) => row.folders.map(({ folder, readBy }) => [folder, readBy] as const)));
  context.io.stdout.write("Each agent loads every skill in the folder it reads:\n");
  for (const [folder, readBy] of [...readers].sort(([a], [b]) => (a < b ? -1 : 1)))
    context.io.stdout.write(`  ${folder}  ${readBy.join(", ")}\n`);
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
  if (args.json) context.io.stdout.write(`${JSON.stringify(problems, null, 2)}\n`);
  else if (problems.length === 0)
    context.io.stdout.write(`Every agent will load every skill (${rows.length} checked).\n`);
  else for (const problem of problems) context.io.stdout.write(`${describeProblem(problem)}\n`);
  return problems.length > 0 ? 1 : 0;
}
