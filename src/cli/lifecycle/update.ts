import { UserError } from "../../kernel/errors.js";
import { refuseStaged } from "../../lifecycle/checks.js";
import { commitSkill, sourceFieldsOf } from "../../lifecycle/commit.js";
import { lockFolder, lockPath, readLock, type LockEntry } from "../../lifecycle/lock-file.js";
import { refuseLinkedFolders, storeFolder } from "../../lifecycle/place.js";
import { signerOf } from "../../lifecycle/signer.js";
import { entryAgents, inspectSkill } from "../../lifecycle/state.js";
import type { CliArgs } from "../args.js";
import {
  checkFreshness,
  entrySpec,
  findLocked,
  recordMovedCommits,
  sharedOpener,
  type SourceOpener,
} from "../../lifecycle/report.js";
import { open, reportFailure, short, warnUnseen, type LifecycleContext } from "./context.js";
import type { CliIo } from "../io.js";

/**
 * `skills-kernel update [NAME]...`: brings tracked skills to their source's latest in every agent
 * they are installed for. A skill edited locally is left alone and its differing files listed
 * (exit 1) unless --force; pinned skills stay where they are.
 */
export async function runUpdate(args: CliArgs, context: LifecycleContext): Promise<number> {
  const lock = await readLock(lockPath(context.scope));
  const names = args.positionals.length > 0 ? args.positionals : Object.keys(lock.skills);
  const results: object[] = [];
  let code = 0;
  // Skills of one repository are read from one checkout of each commit.
  const shared = sharedOpener((spec, commit) => open(context, spec, commit));
  try {
    for (const name of names) {
      const entry = lock.skills[name];
      try {
        if (!entry)
          throw new UserError(`"${name}" is not in ${lockPath(context.scope)}; see: skills-kernel installed`, 1);
        const outcome = await updateOne(name, entry, args, context, shared.open);
        results.push({ name, ...outcome });
        // Kept edits, and a source that could not be asked (a deleted branch), fail the run; npx skills' entries do not.
        if (outcome.status === "kept" || (outcome.status === "unknown" && entry.files !== undefined)) code = 1;
        if (!args.json) say(context.io, name, outcome, args.dryRun);
        if (outcome.status === "updated" && !args.dryRun) await warnUnseen(context, name, entry.agents ?? []);
      } catch (error) {
        reportFailure(context.io, error);
        code = 1;
      }
    }
  } finally {
    await shared.closeAll();
  }
  if (args.json) context.io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  return code;
}

interface UpdateOutcome {
  readonly status: "pinned" | "current" | "kept" | "updated" | "unknown";
  readonly from?: string | null;
  readonly to?: string | null;
  readonly differing?: readonly string[];
  readonly note?: string;
}

async function updateOne(
  name: string,
  entry: LockEntry,
  args: CliArgs,
  context: LifecycleContext,
  openSource: SourceOpener,
): Promise<UpdateOutcome> {
  const fresh = await checkFreshness(name, entry, lockFolder(context.scope), openSource, context.tokenEnv);
  if (fresh.status === "pinned" || fresh.status === "unknown") return { status: fresh.status, note: fresh.note };
  await refuseLinkedFolders(await entryAgents(entry, context.scope, name), context.scope);
  const state = await inspectSkill(name, entry, context.scope);
  if (fresh.status === "current" && state.state === "ok") {
    // The branch moved on without changing this skill: the lock follows, no file is written.
    if (!args.dryRun) await recordMovedCommits(context.scope, [fresh]);
    return { status: "current", from: fresh.current };
  }
  if (state.state === "modified" && !args.force)
    return { status: "kept", differing: state.differing, from: fresh.current, to: fresh.latest };
  if (args.dryRun)
    return { status: "updated", from: fresh.current, to: fresh.latest, note: "dry run: nothing written" };
  const commit = entry.sourceType === "git" ? (fresh.latest ?? undefined) : undefined;
  const source = await openSource(entrySpec(name, entry, lockFolder(context.scope)), commit);
  const offered = findLocked(source, name, entry);
  const staged = await source.stage(offered, storeFolder(context.scope), false, args.allowRisky);
  try {
    const refused = await refuseStaged(staged, { signer: entry.signer, acceptSigner: args.acceptSigner });
    if (refused) throw new UserError(`refusing to update "${name}": ${refused}`, 1);
    const fields = sourceFieldsOf(entry);
    await commitSkill(staged, {
      folder: name,
      agents: state.agents,
      mode: entry.mode ?? "link",
      scope: context.scope,
      force: true,
      addAgents: false,
      source: {
        ...fields,
        commit,
        version: offered.version,
        digest: offered.skill.artifact?.digest,
        indexUrl: offered.skill.artifact?.indexUrl,
        path: offered.path,
        signer: signerOf(staged.signature),
      },
    });
  } finally {
    await staged.discard();
  }
  return { status: "updated", from: fresh.current, to: fresh.latest };
}

function say(io: CliIo, name: string, outcome: UpdateOutcome, dryRun: boolean): void {
  switch (outcome.status) {
    case "kept":
      io.stderr.write(
        `skills-kernel: ${name} has local edits (${outcome.differing!.join(", ")}); left as it is (--force replaces them)\n`,
      );
      return;
    case "updated":
      io.stdout.write(
        `${dryRun ? "would update" : "updated"} ${name}: ${short(outcome.from ?? undefined)} -> ${short(outcome.to ?? undefined)}\n`,
      );
      return;
    case "current":
      io.stdout.write(`${name} is up to date\n`);
      return;
    default:
      io.stdout.write(`${name}: ${outcome.status}${outcome.note ? ` (${outcome.note})` : ""}\n`);
  }
}
