import { AGENTS, agentById, isUniversal, type AgentRow, type Scope } from "./agents.js";
import { differingFiles, digestFolder, exists } from "./digest.js";
import type { LockEntry } from "./lock-file.js";
import { agentSkillPath, storeFolder } from "./place.js";
import { join } from "node:path";

export type SkillState = "ok" | "modified" | "missing";

export interface InstalledSkill {
  /** The lock's key: the skill's install folder. */
  readonly folder: string;
  readonly entry: LockEntry;
  readonly agents: readonly AgentRow[];
  readonly state: SkillState;
  /** Agents whose folder lacks the skill. */
  readonly missingFor: readonly string[];
  /** Files that differ from the lock (added, changed or deleted), for a modified skill. */
  readonly differing: readonly string[];
  /** Written by npx skills: the lock has no per-file digests, only its folder digest. */
  readonly foreign: boolean;
}

/** The agents a lock entry is installed for; an npx skills entry names none, so they are found on disk. */
export async function entryAgents(entry: LockEntry, scope: Scope, folder: string): Promise<AgentRow[]> {
  if (entry.agents) return entry.agents.map((id) => agentById(id)!);
  const found: AgentRow[] = [];
  for (const agent of AGENTS) {
    // Agents reading the shared folder are all "universal" here: the folder cannot tell them apart.
    if (agent.id !== "universal" && isUniversal(agent)) continue;
    if (scope.global && agent.global === undefined) continue;
    if (await exists(agentSkillPath(agent, scope, folder))) found.push(agent);
  }
  return found;
}

/** Compares what is installed with what the lock records. */
export async function inspectSkill(folder: string, entry: LockEntry, scope: Scope): Promise<InstalledSkill> {
  const agents = await entryAgents(entry, scope, folder);
  const foreign = entry.files === undefined;
  const missingFor: string[] = [];
  const present: string[] = [];
  for (const agent of agents) {
    const path = agentSkillPath(agent, scope, folder);
    if (await exists(join(path, "SKILL.md"))) present.push(path);
    else missingFor.push(agent.id);
  }
  // Link mode keeps one copy: checking it checks every agent. A copy per agent is checked each.
  const stored = join(storeFolder(scope), folder);
  const checked = entry.mode === "link" && (await exists(join(stored, "SKILL.md"))) ? [stored] : present;
  const differing = new Set<string>();
  for (const path of checked) {
    const now = await digestFolder(path);
    if (entry.files) for (const file of differingFiles(entry.files, now.files)) differing.add(file);
    else if (now.computedHash !== entry.computedHash) differing.add("(folder digest differs)");
  }
  const state = missingFor.length > 0 || agents.length === 0 ? "missing" : differing.size > 0 ? "modified" : "ok";
  return { folder, entry, agents, state, missingFor, differing: [...differing].sort(), foreign };
}
