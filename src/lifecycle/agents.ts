import { existsSync } from "node:fs";
import { ConfigError } from "../kernel/errors.js";
import { dirname, join } from "node:path";

/**
 * One row per agent: where it reads skills in a project and for the user. `project` folders are
 * relative to the project root, `global` to the home folder (`$XDG_CONFIG_HOME` defaults to
 * `.config`). The first project folder is where skills are installed; every one of them, and
 * `detect`, tells the agent is used in a project. `docs` is where the agent documents its folders.
 */
export interface AgentRow {
  readonly id: string;
  readonly name: string;
  readonly project: readonly string[];
  readonly global: string;
  /** Project folders whose presence says the agent is used there (besides `project`). */
  readonly detect: readonly string[];
  readonly docs: string;
}

/** The shared folder every agent row that lists it reads; installs store one copy there. */
export const SHARED_FOLDER = ".agents/skills";

export const AGENTS: readonly AgentRow[] = [
  {
    id: "agents",
    name: "Shared .agents/skills",
    project: [SHARED_FOLDER],
    global: ".agents/skills",
    detect: [],
    docs: "https://agentskills.io/integrate-skills",
  },
  {
    id: "claude-code",
    name: "Claude Code",
    project: [".claude/skills"],
    global: ".claude/skills",
    detect: [".claude"],
    docs: "https://docs.claude.com/en/docs/claude-code/skills",
  },
  {
    id: "codex",
    name: "OpenAI Codex",
    project: [SHARED_FOLDER],
    global: ".codex/skills",
    detect: [".codex"],
    docs: "https://developers.openai.com/codex/skills",
  },
  {
    id: "cursor",
    name: "Cursor",
    project: [".cursor/skills"],
    global: ".cursor/skills",
    detect: [".cursor"],
    docs: "https://cursor.com/docs/context/skills",
  },
  {
    id: "github-copilot",
    name: "GitHub Copilot",
    project: [".github/skills", SHARED_FOLDER],
    global: ".copilot/skills",
    detect: [".github/copilot-instructions.md"],
    docs: "https://docs.github.com/en/copilot/concepts/agents/about-agent-skills",
  },
  {
    id: "gemini-cli",
    name: "Gemini CLI",
    project: [".gemini/skills"],
    global: ".gemini/skills",
    detect: [".gemini"],
    docs: "https://geminicli.com/docs/cli/skills/",
  },
  {
    id: "opencode",
    name: "OpenCode",
    project: [".opencode/skills"],
    global: ".config/opencode/skills",
    detect: [".opencode", "opencode.json"],
    docs: "https://opencode.ai/docs/skills/",
  },
  {
    id: "goose",
    name: "Goose",
    project: [".goose/skills"],
    global: ".config/goose/skills",
    detect: [".goose", ".goosehints"],
    docs: "https://block.github.io/goose/docs/guides/context-engineering/using-skills/",
  },
  {
    id: "windsurf",
    name: "Windsurf",
    project: [".windsurf/skills"],
    global: ".codeium/windsurf/skills",
    detect: [".windsurf"],
    docs: "https://docs.windsurf.com/windsurf/cascade/skills",
  },
  {
    id: "cline",
    name: "Cline",
    project: [".cline/skills"],
    global: ".cline/skills",
    detect: [".cline", ".clinerules"],
    docs: "https://docs.cline.bot/features/skills",
  },
  {
    id: "amp",
    name: "Amp",
    project: [SHARED_FOLDER],
    global: ".config/agents/skills",
    detect: [],
    docs: "https://ampcode.com/manual#agent-skills",
  },
  {
    id: "kiro",
    name: "Kiro",
    project: [".kiro/skills"],
    global: ".kiro/skills",
    detect: [".kiro"],
    docs: "https://kiro.dev/docs/skills/",
  },
  {
    id: "roo",
    name: "Roo Code",
    project: [".roo/skills"],
    global: ".roo/skills",
    detect: [".roo", ".roomodes"],
    docs: "https://docs.roocode.com/features/skills",
  },
  {
    id: "qwen-code",
    name: "Qwen Code",
    project: [".qwen/skills"],
    global: ".qwen/skills",
    detect: [".qwen"],
    docs: "https://qwenlm.github.io/qwen-code-docs/en/users/features/skills/",
  },
];

/** The agent installed into when none is named and none is detected. */
export const DEFAULT_AGENT = "claude-code";

export function agentById(id: string): AgentRow | undefined {
  return AGENTS.find((agent) => agent.id === id);
}

/** Where an agent's skills live: the first project folder under `root`, or its global folder. */
export function agentFolder(agent: AgentRow, scope: Scope): string {
  if (!scope.global) return join(scope.root, agent.project[0]!);
  const config = process.env.XDG_CONFIG_HOME;
  // The XDG spec says a relative value is invalid and is to be ignored.
  if (config?.startsWith("/") && agent.global.startsWith(".config/")) return join(config, agent.global.slice(".config/".length));
  return join(scope.home, agent.global);
}

/** Where installs happen: a project's root, or (global) the user's home folder. */
export interface Scope {
  readonly global: boolean;
  /** The project root (global: the home folder). */
  readonly root: string;
  readonly home: string;
}


/**
 * The agents used in this scope: in a project, those whose own install folder or marker exists
 * (a folder several agents share says only "agents"); globally, those whose folder's parent
 * exists (`~/.claude`). Empty when none is found.
 */
export function detectAgents(scope: Scope): AgentRow[] {
  return AGENTS.filter((agent) => {
    if (scope.global) return existsSync(dirname(agentFolder(agent, scope)));
    const own = agent.id === "agents" || agent.project[0] !== SHARED_FOLDER ? [agent.project[0]!] : [];
    return [...own, ...agent.detect].some((path) => existsSync(join(scope.root, path)));
  });
}

/** `--agent` ids, `--all-agents`, or the agents detected in the scope, or claude-code. */
export function chooseAgents(ids: readonly string[], all: boolean, scope: Scope): AgentRow[] {
  if (all) return [...AGENTS];
  if (ids.length > 0) {
    return [...new Set(ids)].map((id) => {
      const agent = agentById(id);
      if (!agent) throw new ConfigError(`unknown agent "${id}"; agents: ${AGENTS.map((row) => row.id).join(", ")} (docs/agents.md)`);
      return agent;
    });
  }
  const detected = detectAgents(scope);
  return detected.length > 0 ? detected : [agentById(DEFAULT_AGENT)!];
}

