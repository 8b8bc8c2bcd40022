import { join } from "node:path";
import { ConfigError, UserError } from "../../kernel/errors.js";
import { lockPath, readLock, writeLock } from "../../lifecycle/lock-file.js";
import { withLockFile } from "../../lifecycle/lock-guard.js";
import { agentSkillPath, removeEntry, samePlace, storeFolder } from "../../lifecycle/place.js";
import { entryAgents } from "../../lifecycle/state.js";
import type { CliArgs } from "../args.js";
import type { LifecycleContext } from "./context.js";

/**
 * `skills-kernel remove NAME... [--agent ID]...`: removes skills from the named agents, or from
 * all; the lock follows. The stored copy goes with the last agent that uses it.
 */
export async function runRemove(args: CliArgs, context: LifecycleContext): Promise<number> {
  const file = lockPath(context.scope);
  return withLockFile(file, async () => {
    const lock = await readLock(file);
    const skills = { ...lock.skills };
    for (const name of args.positionals) {
      const entry = skills[name];
      if (!entry) throw new UserError(`"${name}" is not in ${file}; see: skills-kernel installed`, 1);
      const agents = await entryAgents(entry, context.scope, name);
      const unknown = args.agents.filter((id) => !agents.some((agent) => agent.id === id));
      if (unknown.length > 0) throw new ConfigError(`"${name}" is not installed for ${unknown.join(", ")}; it is for ${agents.map((a) => a.id).join(", ")}`);
      const removing = args.agents.length > 0 ? agents.filter((agent) => args.agents.includes(agent.id)) : agents;
      const left = agents.filter((agent) => !removing.includes(agent));
      const stored = join(storeFolder(context.scope), name);
      const keep = new Set(left.map((agent) => agentSkillPath(agent, context.scope, name)));
      // The stored copy stays while an agent still links to it.
      if (left.length > 0 && entry.mode !== "copy") keep.add(stored);
      for (const agent of removing) {
        const path = agentSkillPath(agent, context.scope, name);
        let kept = false;
        for (const other of keep) kept ||= await samePlace(path, other);
        if (!kept) await removeEntry(path);
      }
      if (left.length === 0) {
        if (entry.mode !== "copy") await removeEntry(stored);
        delete skills[name];
        process.stdout.write(`removed ${name}\n`);
      } else {
        skills[name] = { ...entry, agents: left.map((agent) => agent.id) };
        process.stdout.write(`removed ${name} for ${removing.map((a) => a.id).join(", ")}; still installed for ${left.map((a) => a.id).join(", ")}\n`);
      }
    }
    await writeLock(file, { ...lock, skills });
    return 0;
  });
}
