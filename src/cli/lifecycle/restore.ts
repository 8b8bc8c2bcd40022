import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { UserError } from "../../kernel/errors.js";
import { refuseStaged } from "../../lifecycle/checks.js";
import { commitSkill, sourceFieldsOf } from "../../lifecycle/commit.js";
import { lockFolder, lockPath, readLock, type LockEntry } from "../../lifecycle/lock-file.js";
import { refuseLinkedFolders, storeFolder } from "../../lifecycle/place.js";
import { entryAgents, inspectSkill } from "../../lifecycle/state.js";
import type { CliArgs } from "../args.js";
import { entrySpec, findLocked } from "../../lifecycle/report.js";
import { open, reportFailure, warnUnseen, type LifecycleContext } from "./context.js";

/**
 * `skills-kernel restore`: from the lock alone, exactly the locked commits into the locked agents,
 * every digest the lock records (each file's and the folder's) checked before anything is written. What is installed and matches is left
 * alone; local edits are kept (exit 1) unless --force. --frozen changes nothing the lock cannot
 * vouch for: an entry without per-file digests is an error, as are local edits.
 */
export async function runRestore(args: CliArgs, context: LifecycleContext): Promise<number> {
  if (args.frozen && args.force) throw new UserError("--frozen and --force do not go together", 2);
  const file = lockPath(context.scope);
  // A restore that finds no lock has nothing to go by: say so rather than succeed silently.
  if (!existsSync(file)) {
    throw new UserError(
      `no ${basename(file)} in ${dirname(file)}: nothing to restore (skills-kernel add SOURCE installs skills and records them there)`,
      1,
    );
  }
  const lock = await readLock(file);
  let code = 0;
  for (const [name, entry] of Object.entries(lock.skills)) {
    try {
      const line = await restoreOne(name, entry, args, context);
      context.io.stdout.write(`${line}\n`);
      await warnUnseen(context, name, entry.agents ?? []);
    } catch (error) {
      reportFailure(context.io, error);
      code = 1;
    }
  }
  return code;
}

async function restoreOne(name: string, entry: LockEntry, args: CliArgs, context: LifecycleContext): Promise<string> {
  if (entry.files === undefined) {
    throw new UserError(
      `${name} was installed by npx skills and the lock holds no per-file digests to check a restore against; add it again with skills-kernel add`,
      1,
    );
  }
  await refuseLinkedFolders(await entryAgents(entry, context.scope, name), context.scope);
  const state = await inspectSkill(name, entry, context.scope);
  if (state.state === "ok") return `${name} is installed as locked`;
  if (state.state === "modified" && !args.force) {
    throw new UserError(
      `${name} has local edits (${state.differing.join(", ")}); left as it is (--force replaces them)`,
      1,
    );
  }
  if (entry.sourceType === "git" && entry.commit === undefined)
    throw new UserError(`${name}: the lock records no commit`, 1);
  const source = await open(context, entrySpec(name, entry, lockFolder(context.scope)), entry.commit);
  try {
    // The lock's digests name exactly what the project reviewed and committed: restore does not audit again.
    const staged = await source.stage(findLocked(source, name, entry), storeFolder(context.scope), false, true);
    try {
      const refused = await refuseStaged(staged, {
        files: entry.files,
        computedHash: entry.computedHash,
        signer: entry.signer,
        acceptSigner: args.acceptSigner,
      });
      if (refused) throw new UserError(`refusing to restore "${name}": ${refused}`, 1);
      const fields = sourceFieldsOf(entry);
      await commitSkill(staged, {
        folder: name,
        agents: state.agents,
        mode: entry.mode ?? "link",
        scope: context.scope,
        force: true,
        addAgents: false,
        source: fields,
        leaveLock: true,
      });
    } finally {
      await staged.discard();
    }
  } finally {
    await source.close();
  }
  return `restored ${name} for ${state.agents.map((agent) => agent.id).join(", ")}`;
}
