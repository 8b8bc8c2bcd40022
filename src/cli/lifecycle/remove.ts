import { join } from "node:path";
import { ConfigError, UserError } from "../../kernel/errors.js";
import { agentFolder, readersOf, shownFolder, type AgentRow, type Scope } from "../../lifecycle/agents.js";
import { lockPath, readLock, writeLock, type LockEntry } from "../../lifecycle/lock-file.js";
import { withLockFile } from "../../lifecycle/lock-guard.js";
import {
  agentSkillPath,
  entryKind,
  notASkill,
  refuseLinkedFolders,
  removeEntry,
  samePlace,
  skillFolders,
  storeFolder,
} from "../../lifecycle/place.js";
import { entryAgents } from "../../lifecycle/state.js";
import type { CliArgs } from "../args.js";
import type { LifecycleContext } from "./context.js";

/** One skill to remove: what goes, for whom, and who keeps it. */
interface Removal {
  readonly name: string;
  readonly entry: LockEntry;
  readonly removing: readonly AgentRow[];
  readonly left: readonly AgentRow[];
  /** The entries deleted: links unlinked, installed skills' folders removed. */
  readonly paths: readonly string[];
}

/**
 * `skills-kernel remove NAME... [--skill NAME]... [--agent ID]...`: removes skills from the named agents, or from
 * all; the lock follows. The stored copy goes with the last agent that uses it. Every path is
 * checked before anything is deleted: no link on the way, and only links and installed skills.
 */
export async function runRemove(args: CliArgs, context: LifecycleContext): Promise<number> {
  const file = lockPath(context.scope);
  return withLockFile(file, async () => {
    const lock = await readLock(file);
    const skills = { ...lock.skills };
    const removals: Removal[] = [];
    for (const name of new Set([...args.positionals, ...args.skills]))
      removals.push(await planRemoval(name, skills[name], args, context));
    for (const { paths } of removals) {
      for (const path of paths) {
        const kind = await entryKind(path);
        if (kind === "file" || kind === "folder")
          throw new UserError(`${notASkill(path, kind)}; nothing was removed`, 1);
      }
    }
    for (const { name, entry, removing, left, paths } of removals) {
      for (const path of paths) await removeEntry(path);
      if (left.length === 0) {
        delete skills[name];
        context.io.stdout.write(`removed ${name}\n`);
      } else {
        skills[name] = { ...entry, agents: left.map((agent) => agent.id) };
        context.io.stdout.write(
          `removed ${name} for ${removing.map((a) => a.id).join(", ")}; still installed for ${left.map((a) => a.id).join(", ")}\n`,
        );
        for (const notice of stillSeen(name, entry, removing, left, args.global, context.scope))
          context.io.stderr.write(`skills-kernel: warning: ${notice}\n`);
      }
    }
    await writeLock(file, { ...lock, skills });
    return 0;
  });
}

/**
 * A folder shared by several agents (`.agents/skills`) keeps the skill while any agent that is
 * left uses it, and every agent reading that folder loads it: the agents it was removed for among
 * them are told, with the command that removes it for all.
 */
function stillSeen(
  name: string,
  entry: LockEntry,
  removing: readonly AgentRow[],
  left: readonly AgentRow[],
  global: boolean,
  scope: Scope,
): string[] {
  return skillFolders(left, entry.mode !== "copy", scope).flatMap((folder) => {
    const readers = readersOf(folder, scope);
    const seeing = removing.filter((agent) => readers.includes(agent));
    if (seeing.length === 0) return [];
    const keepers = left.filter((agent) => entry.mode !== "copy" || agentFolder(agent, scope) === folder);
    return [
      `${seeing.map((agent) => agent.id).join(", ")} still ${seeing.length === 1 ? "loads" : "load"} ${name}: ${shownFolder(folder, scope)} keeps it for ${keepers.map((agent) => agent.id).join(", ")}, and every agent reading that folder loads it (${readers.map((agent) => agent.id).join(", ")}); to remove it for all: skills-kernel remove ${name}${global ? " --global" : ""}`,
    ];
  });
}

async function planRemoval(
  name: string,
  entry: LockEntry | undefined,
  args: CliArgs,
  context: LifecycleContext,
): Promise<Removal> {
  if (!entry) throw new UserError(`"${name}" is not in ${lockPath(context.scope)}; see: skills-kernel installed`, 1);
  const agents = await entryAgents(entry, context.scope, name);
  await refuseLinkedFolders(agents, context.scope);
  const unknown = args.agents.filter((id) => !agents.some((agent) => agent.id === id));
  if (unknown.length > 0)
    throw new ConfigError(
      `"${name}" is not installed for ${unknown.join(", ")}; it is for ${agents.map((a) => a.id).join(", ")}`,
    );
  const removing = args.agents.length > 0 ? agents.filter((agent) => args.agents.includes(agent.id)) : agents;
  const left = agents.filter((agent) => !removing.includes(agent));
  const stored = join(storeFolder(context.scope), name);
  const keep = new Set(left.map((agent) => agentSkillPath(agent, context.scope, name)));
  // The stored copy stays while an agent still links to it.
  if (left.length > 0 && entry.mode !== "copy") keep.add(stored);
  const paths: string[] = [];
  for (const agent of removing) {
    const path = agentSkillPath(agent, context.scope, name);
    let kept = false;
    for (const other of keep) kept ||= await samePlace(path, other);
    if (!kept && !paths.includes(path)) paths.push(path);
  }
  if (left.length === 0 && entry.mode !== "copy" && !paths.includes(stored)) paths.push(stored);
  return { name, entry, removing, left, paths };
}
