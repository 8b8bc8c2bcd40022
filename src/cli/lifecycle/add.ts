import { basename } from "node:path";
import { UserError } from "../../kernel/errors.js";
import { refuseStaged } from "../../lifecycle/checks.js";
import { commitSkill } from "../../lifecycle/commit.js";
import type { OfferedSkill, OpenedSource, StagedSkill } from "../../lifecycle/fetch.js";
import { lockPath, readLock } from "../../lifecycle/lock-file.js";
import { storeFolder } from "../../lifecycle/place.js";
import { parseSource, sourceType } from "../../lifecycle/source-spec.js";
import type { CliArgs } from "../args.js";
import { chooseAgents, open, reportFailure, resolveGit, SCRATCH, short, type LifecycleContext } from "./context.js";

/**
 * `skills-kernel add SOURCE`: copies skills out of a source through the install's checks, places
 * them for the chosen agents and records them in the lock. One line per skill (files and warnings
 * with --verbose); a failure is said once, and the exit code is 1 if any skill failed.
 */
export async function runAdd(args: CliArgs, context: LifecycleContext): Promise<number> {
  const { spec, skill } = parseSource(args.positionals[0]!, context.cwd);
  const wanted = [...new Set([...args.skills, ...(skill ? [skill] : [])])];
  const agents = chooseAgents(args.agents, args.allAgents, context.scope);
  const mode = args.copy ? "copy" : "link";
  // A lock that cannot be read stops the add before anything is fetched, and is said once.
  await readLock(lockPath(context.scope));
  const resolved = await resolveGit(spec);
  const source = await open(context, spec, resolved?.commit);
  const results: object[] = [];
  let code = 0;
  try {
    for (const offered of choose(source, wanted, spec.written)) {
      try {
        const staged = await source.stage(offered, args.dryRun ? SCRATCH : storeFolder(context.scope), args.strict);
        try {
          // The one place a skill can be refused before anything is written (src/lifecycle/checks.ts).
          const refused = refuseStaged(staged);
          if (refused) throw new UserError(`refusing to add "${offered.name}": ${refused}`, 1);
          const folder = basename(staged.folder);
          const fields = {
            source: spec.written,
            sourceType: sourceType(spec),
            url: spec.kind === "git" ? spec.repository.url : spec.kind === "catalog" ? spec.url : spec.folder,
            ref: spec.kind === "git" ? spec.repository.ref : undefined,
            pinned: resolved?.pinned ?? false,
            commit: resolved?.commit,
            version: offered.version,
            path: offered.path,
            name: offered.name === folder ? undefined : offered.name,
          };
          const committed = args.dryRun
            ? { agents: agents.map((agent) => agent.id), copies: [] }
            : await commitSkill(staged, { folder, agents, mode, scope: context.scope, force: args.force, addAgents: true, source: fields });
          results.push({ ...fields, folder, agents: committed.agents, mode, files: Object.keys(staged.digest.files).sort(), warnings: staged.warnings, dry_run: args.dryRun });
          if (!args.json) printSummary(staged, folder, committed.agents, committed.copies, { ...fields, mode, dryRun: args.dryRun, verbose: args.verbose });
        } finally {
          await staged.discard();
        }
      } catch (error) {
        reportFailure(error);
        code = 1;
      }
    }
  } finally {
    await source.close();
  }
  if (args.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  return code;
}

/** The skills asked for (by name or by folder name), or all of them; an unknown one is an error naming what there is. */
function choose(source: OpenedSource, wanted: readonly string[], written: string): OfferedSkill[] {
  const has = source.skills.map((skill) => skill.name).join(", ");
  if (source.skills.length === 0) throw new UserError(`${written} has no skills`, 1);
  if (wanted.length === 0) return [...source.skills];
  return wanted.map((name) => {
    const found = source.skills.find((skill) => skill.name === name) ?? source.skills.find((skill) => basename(skill.path) === name);
    if (!found) throw new UserError(`${written} has no skill named "${name}"; it has: ${has}`, 1);
    return found;
  });
}

interface SummaryFacts {
  readonly ref?: string;
  readonly pinned: boolean;
  readonly commit?: string;
  readonly version?: string;
  readonly mode: string;
  readonly dryRun: boolean;
  readonly verbose: boolean;
}

function printSummary(staged: StagedSkill, folder: string, agents: readonly string[], copies: readonly string[], facts: SummaryFacts): void {
  const files = Object.keys(staged.digest.files).sort();
  const at = facts.commit
    ? ` at ${short(facts.commit)} (${facts.pinned ? `pinned${facts.ref ? ` to ${facts.ref}` : ""}` : `tracking ${facts.ref ?? "the default branch"}`})`
    : facts.version
      ? ` version ${facts.version}`
      : "";
  const warnings = staged.warnings.length > 0 && !facts.verbose ? `; ${staged.warnings.length} warning${staged.warnings.length === 1 ? "" : "s"} (--verbose shows them)` : "";
  const copied = copies.length > 0 ? `; copied where a link could not be made: ${copies.join(", ")}` : "";
  const verb = facts.dryRun ? "would add" : "added";
  process.stdout.write(`${verb} ${folder}${at} for ${agents.join(", ")} (${facts.mode}, ${files.length} file${files.length === 1 ? "" : "s"})${warnings}${copied}\n`);
  if (!facts.verbose) return;
  for (const file of files) process.stdout.write(`  ${file}\n`);
  for (const warning of staged.warnings) process.stdout.write(`  warning: ${warning}\n`);
}
