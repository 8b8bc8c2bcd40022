import { addSkills, type AddedSkill } from "../../lifecycle/add.js";
import { escapeForDisplay } from "../../skills/display-text.js";
import { parseSource, type SourceSpec } from "../../lifecycle/source-spec.js";
import type { CliArgs } from "../args.js";
import { chooseAgents } from "../../lifecycle/agents.js";
import { askAgents, canAsk } from "./ask-agents.js";
import { open, resolveGit, short, warnUnseen, type LifecycleContext } from "./context.js";
import type { CliIo } from "../io.js";

/**
 * `skills-kernel add SOURCE`: one line per skill added (files and warnings with --verbose); each
 * failure is said once, and the exit code is 1 if any skill failed.
 */
export async function runAdd(args: CliArgs, context: LifecycleContext): Promise<number> {
  const { spec, skill } = parseSource(args.positionals[0]!, context.cwd);
  if (args.listOnly) return listSource(args, context, spec);
  let agents = chooseAgents(args.agents, args.allAgents, context.scope);
  if (args.agents.length === 0 && !args.allAgents && !args.json && !args.yes && canAsk(context.io))
    agents = await askAgents(context.scope, agents, context.io.stderr);
  const outcome = await addSkills(
    {
      spec,
      wanted: [...new Set([...args.skills, ...(skill ? [skill] : [])])],
      agents,
      mode: args.copy ? "copy" : "link",
      scope: context.scope,
      force: args.force,
      strict: args.strict,
      dryRun: args.dryRun,
      allowRisky: args.allowRisky,
      resolved: await resolveGit(context, spec),
    },
    (opened, commit) => open(context, opened, commit),
  );
  if (args.json) context.io.stdout.write(`${JSON.stringify(outcome.added, null, 2)}\n`);
  else for (const added of outcome.added) printSummary(context.io, added, args.verbose);
  for (const added of outcome.added) if (!added.dry_run) await warnUnseen(context, added.folder, added.agents);
  const { countAddedSkills } = await import("../../plugins/core/usage/index.js");
  await countAddedSkills(
    outcome.added
      .filter((added) => !added.dry_run)
      .map((added) => ({ source: added.source, name: added.name ?? added.folder })),
    context.logger,
  );
  for (const note of outcome.notes) context.io.stderr.write(`skills-kernel: note: ${note}\n`);
  for (const failure of outcome.failures) context.io.stderr.write(`skills-kernel: ${failure}\n`);
  return outcome.failures.length > 0 ? 1 : 0;
}

/** `add SOURCE --list` (npx skills' `-l`): the source's skills, by name, and nothing installed. */
async function listSource(args: CliArgs, context: LifecycleContext, spec: SourceSpec): Promise<number> {
  const resolved = await resolveGit(context, spec);
  const source = await open(context, spec, resolved?.commit);
  try {
    const skills = source.skills.map(({ name, path, skill }) => ({ name, path, description: skill.description }));
    if (args.json) context.io.stdout.write(`${JSON.stringify(skills, null, 2)}\n`);
    else
      for (const { name, description } of skills)
        context.io.stdout.write(`${escapeForDisplay(name)}  ${escapeForDisplay(description)}\n`);
    for (const [name, why] of source.skipped)
      context.io.stderr.write(`skills-kernel: ${escapeForDisplay(name)} is left out: ${escapeForDisplay(why)}\n`);
    if (skills.length === 0 && !args.json) context.io.stdout.write(`${spec.written} has no skills\n`);
    return 0;
  } finally {
    await source.close();
  }
}

function printSummary(io: CliIo, added: AddedSkill, verbose: boolean): void {
  const at = added.commit
    ? ` at ${short(added.commit)} (${added.pinned ? `pinned${added.ref ? ` to ${added.ref}` : ""}` : `tracking ${added.ref ?? "the default branch"}`})`
    : added.version
      ? ` version ${added.version}`
      : "";
  const count = added.warnings.length;
  const warnings = count > 0 && !verbose ? `; ${count} warning${count === 1 ? "" : "s"} (--verbose shows them)` : "";
  const copied = added.copies.length > 0 ? `; copied where a link could not be made: ${added.copies.join(", ")}` : "";
  const files = `${added.files.length} file${added.files.length === 1 ? "" : "s"}`;
  io.stdout.write(
    `${added.dry_run ? "would add" : "added"} ${added.folder}${at} for ${added.agents.join(", ")} (${added.mode}, ${files})${warnings}${copied}\n`,
  );
  if (!verbose) return;
  for (const file of added.files) io.stdout.write(`  ${file}\n`);
  for (const warning of added.warnings) io.stdout.write(`  warning: ${warning}\n`);
}
