import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { distance } from "fastest-levenshtein";
import { ConfigError } from "../kernel/errors.js";
import { AGENT_ROWS, type AgentRow } from "./agents-table.js";

export type { AgentRow } from "./agents-table.js";

/** The shared folder: every agent reading it is "universal", and installs store one copy there. */
export const SHARED_FOLDER = ".agents/skills";

export const AGENTS: readonly AgentRow[] = AGENT_ROWS;

/** Ids this project used before it took npx skills' table, kept so older locks and commands still work. */
const FORMER_IDS: Readonly<Record<string, string>> = { agents: "universal", kiro: "kiro-cli" };

/** Where a `$VAR/…` user folder is when the variable is unset (or relative, which the XDG spec says to ignore). */
const HOME_DEFAULTS: Readonly<Record<string, string>> = {
  XDG_CONFIG_HOME: ".config",
  CLAUDE_CONFIG_DIR: ".claude",
  AUTOHAND_HOME: ".autohand",
  GROK_HOME: ".grok",
  HERMES_HOME: ".hermes",
  VIBE_HOME: ".vibe",
};

/** The agent installed into when none is named and none is detected. */
export const DEFAULT_AGENT = "claude-code";

export function agentById(id: string): AgentRow | undefined {
  const wanted = FORMER_IDS[id] ?? id;
  return AGENTS.find((agent) => agent.id === wanted);
}

/** Whether the agent reads the shared folder in a project (npx skills' "universal" agents). */
export function isUniversal(agent: AgentRow): boolean {
  return agent.project === SHARED_FOLDER;
}

/** The folder an agent reads for the user, with `~` and `$VAR` resolved; undefined for a project-only agent. */
export function userFolder(agent: AgentRow, home: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const global = agent.global;
  if (global === undefined) return undefined;
  if (global.startsWith("~/")) return join(home, global.slice(2));
  const [, variable, rest] = /^\$([A-Z_]+)\/(.*)$/.exec(global)!;
  const value = env[variable!]?.trim();
  return join(value?.startsWith("/") ? value : join(home, HOME_DEFAULTS[variable!]!), rest!);
}

/**
 * Where an agent's skills are installed: its project folder under `root`, or for the user its
 * own folder, except that universal agents share `~/.agents/skills` there too, as npx skills does.
 */
export function agentFolder(agent: AgentRow, scope: Scope): string {
  if (!scope.global) return join(scope.root, agent.project);
  // A project-only agent has no user folder: chooseAgents refuses it with --global.
  return isUniversal(agent)
    ? join(scope.home, SHARED_FOLDER)
    : (userFolder(agent, scope.home) ?? join(scope.home, agent.project));
}

/**
 * The agents that read `folder` in this scope: every universal agent reads the shared one, so a
 * skill there is seen by all of them, whichever agents it was installed for.
 */
export function readersOf(folder: string, scope: Scope): AgentRow[] {
  return AGENTS.filter(
    (agent) => (!scope.global || agent.global !== undefined) && agentFolder(agent, scope) === folder,
  );
}

/** `.agents/skills` in a project; `~/.agents/skills` for the user. */
export function shownFolder(folder: string, scope: Scope): string {
  const path = relative(scope.global ? scope.home : scope.root, folder)
    .split(sep)
    .join("/");
  return scope.global ? `~/${path}` : path;
}

/** Where installs happen: a project's root, or (global) the user's home folder. */
export interface Scope {
  readonly global: boolean;
  /** The project root (global: the home folder). */
  readonly root: string;
  readonly home: string;
}

/** The project files that say an agent is used: its own dot-folder (never the shared one) and its markers. */
function projectMarkers(agent: AgentRow): string[] {
  const root = agent.project.split("/")[0]!;
  const own = agent.id === "universal" ? [SHARED_FOLDER] : !isUniversal(agent) && root.startsWith(".") ? [root] : [];
  return [...own, ...(agent.detect ?? [])];
}

/**
 * The agents used in this scope: in a project, those whose dot-folder or marker exists (the
 * shared folder says only "universal"); for the user, those whose folder's parent exists
 * (`~/.claude`). Empty when none is found.
 */
export function detectAgents(scope: Scope): AgentRow[] {
  return AGENTS.filter((agent) => {
    if (scope.global) {
      if (isUniversal(agent)) return agent.id === "universal" && existsSync(join(scope.home, ".agents"));
      const folder = userFolder(agent, scope.home);
      return folder !== undefined && existsSync(join(folder, ".."));
    }
    return projectMarkers(agent).some((path) => existsSync(join(scope.root, path)));
  });
}

/** `--agent` ids, `--all-agents`, or the agents detected in the scope, or claude-code. */
export function chooseAgents(ids: readonly string[], all: boolean, scope: Scope): AgentRow[] {
  if (all) return scope.global ? AGENTS.filter((agent) => agent.global !== undefined) : [...AGENTS];
  if (ids.length > 0) {
    const chosen = [...new Set(ids)].map((id) => {
      const agent = agentById(id);
      if (!agent) throw new ConfigError(unknownAgent(id));
      return agent;
    });
    const projectOnly = scope.global ? chosen.filter((agent) => agent.global === undefined) : [];
    if (projectOnly.length > 0)
      throw new ConfigError(
        `${projectOnly.map((agent) => agent.id).join(", ")}: read skills in a project only; drop --global or that --agent`,
      );
    return [...new Map(chosen.map((agent) => [agent.id, agent])).values()];
  }
  const detected = detectAgents(scope);
  return detected.length > 0 ? detected : [agentById(DEFAULT_AGENT)!];
}

/** An unknown `--agent`: the closest ids, and where the whole table is. */
function unknownAgent(id: string): string {
  const lower = id.toLowerCase();
  const near = AGENTS.map((agent) => ({
    id: agent.id,
    far: agent.name.toLowerCase() === lower ? 0 : distance(lower, agent.id),
  }))
    .filter((candidate) => candidate.far <= 2)
    .sort((a, b) => a.far - b.far)
    .map((candidate) => candidate.id);
  const hint = near.length > 0 ? `; did you mean ${near.slice(0, 3).join(", ")}?` : "";
  return `unknown agent "${id}"${hint} (${AGENTS.length} agents: docs/agents.md)`;
}
