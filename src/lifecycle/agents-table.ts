/**
 * Every agent `npx skills` (skills 1.7.4) installs into, by its ids and folders, so a lock written
 * by either tool means the same to the other. `project` is relative to the project root; `global`
 * is the folder the agent reads for the user: `~/…`, or `$VAR/…` where an environment variable
 * moves it (defaults in agents.ts); absent for an agent read in projects only. `detect` names
 * project files that say the agent is used there, beside its own dot-folder. `docs` is where the
 * agent documents its folders, or npx skills' table where the agent does not.
 */
export interface AgentRow {
  readonly id: string;
  readonly name: string;
  readonly project: string;
  readonly global?: string;
  readonly detect?: readonly string[];
  readonly docs: string;
}

/** npx skills' own table, for agents whose folders are documented nowhere else. */
const NPX_TABLE = "https://github.com/vercel-labs/skills/blob/main/docs/agents.md";

export const AGENT_ROWS: readonly AgentRow[] = [
  { id: "aider-desk", name: "AiderDesk", project: ".aider-desk/skills", global: "~/.aider-desk/skills", docs: NPX_TABLE },
  { id: "amp", name: "Amp", project: ".agents/skills", global: "$XDG_CONFIG_HOME/agents/skills", docs: "https://ampcode.com/manual#agent-skills" },
  { id: "antigravity", name: "Antigravity", project: ".agents/skills", global: "~/.gemini/antigravity/skills", docs: "https://antigravity.google/docs/skills" },
  { id: "antigravity-cli", name: "Antigravity CLI", project: ".agents/skills", global: "~/.gemini/antigravity-cli/skills", docs: "https://antigravity.google/docs/skills" },
  { id: "astrbot", name: "AstrBot", project: "data/skills", global: "~/.astrbot/data/skills", docs: NPX_TABLE },
  { id: "autohand-code", name: "Autohand Code CLI", project: ".autohand/skills", global: "$AUTOHAND_HOME/skills", docs: NPX_TABLE },
  { id: "augment", name: "Augment", project: ".augment/skills", global: "~/.augment/skills", docs: NPX_TABLE },
  { id: "bob", name: "IBM Bob", project: ".bob/skills", global: "~/.bob/skills", docs: NPX_TABLE },
  { id: "claude-code", name: "Claude Code", project: ".claude/skills", global: "$CLAUDE_CONFIG_DIR/skills", docs: "https://code.claude.com/docs/en/skills" },
  { id: "openclaw", name: "OpenClaw", project: "skills", global: "~/.openclaw/skills", docs: "https://docs.openclaw.ai/tools/skills" },
  { id: "cline", name: "Cline", project: ".agents/skills", global: "~/.agents/skills", detect: [".cline",".clinerules"], docs: "https://docs.cline.bot/features/skills" },
  { id: "codearts-agent", name: "CodeArts Agent", project: ".codeartsdoer/skills", global: "~/.codeartsdoer/skills", docs: NPX_TABLE },
  { id: "codebuddy", name: "CodeBuddy", project: ".codebuddy/skills", global: "~/.codebuddy/skills", docs: "https://www.codebuddy.ai/docs/ide/Features/Skills" },
  { id: "codemaker", name: "Codemaker", project: ".codemaker/skills", global: "~/.codemaker/skills", docs: NPX_TABLE },
  { id: "codestudio", name: "Code Studio", project: ".codestudio/skills", global: "~/.codestudio/skills", docs: NPX_TABLE },
  { id: "codex", name: "Codex", project: ".agents/skills", global: "~/.agents/skills", detect: [".codex"], docs: "https://developers.openai.com/codex/skills" },
  { id: "command-code", name: "Command Code", project: ".commandcode/skills", global: "~/.commandcode/skills", docs: "https://commandcode.ai/docs/skills" },
  { id: "continue", name: "Continue", project: ".continue/skills", global: "~/.continue/skills", docs: NPX_TABLE },
  { id: "cortex", name: "Cortex Code", project: ".cortex/skills", global: "~/.snowflake/cortex/skills", docs: NPX_TABLE },
  { id: "crush", name: "Crush", project: ".crush/skills", global: "~/.config/crush/skills", docs: "https://github.com/charmbracelet/crush?tab=readme-ov-file#agent-skills" },
  { id: "cursor", name: "Cursor", project: ".agents/skills", global: "~/.cursor/skills", detect: [".cursor"], docs: "https://cursor.com/docs/context/skills" },
  { id: "deepagents", name: "Deep Agents", project: ".agents/skills", global: "~/.deepagents/agent/skills", docs: NPX_TABLE },
  { id: "devin", name: "Devin for Terminal", project: ".devin/skills", global: "$XDG_CONFIG_HOME/devin/skills", docs: NPX_TABLE },
  { id: "dexto", name: "Dexto", project: ".agents/skills", global: "~/.agents/skills", docs: NPX_TABLE },
  { id: "droid", name: "Droid", project: ".agents/skills", global: "~/.factory/skills", docs: "https://docs.factory.ai/cli/configuration/skills" },
  { id: "eve", name: "Eve", project: "agent/skills", docs: NPX_TABLE },
  { id: "firebender", name: "Firebender", project: ".agents/skills", global: "~/.firebender/skills", docs: "https://docs.firebender.com/multi-agent/skills" },
  { id: "forgecode", name: "ForgeCode", project: ".forge/skills", global: "~/.forge/skills", docs: NPX_TABLE },
  { id: "fx", name: "fx", project: ".agents/skills", global: "~/.agents/skills", docs: NPX_TABLE },
  { id: "gemini-cli", name: "Gemini CLI", project: ".agents/skills", global: "~/.gemini/skills", detect: [".gemini"], docs: "https://geminicli.com/docs/cli/skills/" },
  { id: "github-copilot", name: "GitHub Copilot", project: ".agents/skills", global: "~/.copilot/skills", detect: [".github/copilot-instructions.md"], docs: "https://docs.github.com/en/copilot/concepts/agents/about-agent-skills" },
  { id: "goose", name: "Goose", project: ".goose/skills", global: "$XDG_CONFIG_HOME/goose/skills", detect: [".goosehints"], docs: "https://block.github.io/goose/docs/guides/context-engineering/using-skills/" },
  { id: "grok", name: "Grok Build", project: ".grok/skills", global: "$GROK_HOME/skills", docs: NPX_TABLE },
  { id: "hermes-agent", name: "Hermes Agent", project: ".hermes/skills", global: "$HERMES_HOME/skills", docs: NPX_TABLE },
  { id: "inference-sh", name: "inference.sh", project: ".inferencesh/skills", global: "~/.inferencesh/skills", docs: NPX_TABLE },
  { id: "jazz", name: "Jazz", project: ".jazz/skills", global: "~/.jazz/skills", docs: NPX_TABLE },
  { id: "junie", name: "Junie", project: ".junie/skills", global: "~/.junie/skills", docs: NPX_TABLE },
  { id: "iflow-cli", name: "iFlow CLI", project: ".iflow/skills", global: "~/.iflow/skills", docs: "https://platform.iflow.cn/en/cli/examples/skill" },
  { id: "kilo", name: "Kilo Code", project: ".agents/skills", global: "~/.kilo/skills", docs: NPX_TABLE },
  { id: "kimchi", name: "Kimchi", project: ".kimchi/skills", global: "~/.config/kimchi/harness/skills", docs: NPX_TABLE },
  { id: "kimi-code-cli", name: "Kimi Code CLI", project: ".agents/skills", global: "~/.agents/skills", docs: "https://moonshotai.github.io/kimi-code/en/customization/skills" },
  { id: "kiro-cli", name: "Kiro CLI", project: ".kiro/skills", global: "~/.kiro/skills", docs: "https://kiro.dev/docs/cli/custom-agents/configuration-reference/#skill-resources" },
  { id: "kode", name: "Kode", project: ".kode/skills", global: "~/.kode/skills", docs: "https://github.com/shareAI-lab/kode/blob/main/docs/skills.md" },
  { id: "lingma", name: "Lingma", project: ".lingma/skills", global: "~/.lingma/skills", docs: NPX_TABLE },
  { id: "loaf", name: "Loaf", project: ".agents/skills", global: "~/.agents/skills", docs: NPX_TABLE },
  { id: "mcpjam", name: "MCPJam", project: ".mcpjam/skills", global: "~/.mcpjam/skills", docs: NPX_TABLE },
  { id: "minimax-code", name: "MiniMax Code", project: ".minimax/skills", global: "~/.minimax/skills", docs: NPX_TABLE },
  { id: "mistral-vibe", name: "Mistral Vibe", project: ".vibe/skills", global: "$VIBE_HOME/skills", docs: NPX_TABLE },
  { id: "moxby", name: "Moxby", project: ".moxby/skills", global: "~/.moxby/skills", docs: NPX_TABLE },
  { id: "mux", name: "Mux", project: ".mux/skills", global: "~/.mux/skills", docs: NPX_TABLE },
  { id: "opencode", name: "OpenCode", project: ".agents/skills", global: "$XDG_CONFIG_HOME/opencode/skills", detect: [".opencode","opencode.json"], docs: "https://opencode.ai/docs/skills" },
  { id: "openhands", name: "OpenHands", project: ".openhands/skills", global: "~/.openhands/skills", docs: "https://docs.openhands.ai/modules/usage/how-to/using-skills" },
  { id: "ona", name: "Ona", project: ".ona/skills", global: "~/.ona/skills", docs: NPX_TABLE },
  { id: "pi", name: "Pi", project: ".agents/skills", global: "~/.agents/skills", docs: "https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/docs/skills.md" },
  { id: "posit-assistant", name: "Posit Assistant", project: ".posit/assistant/skills", global: "~/.posit/assistant/skills", docs: "https://assistant.posit.co/docs/features/skills/" },
  { id: "qoder", name: "Qoder", project: ".qoder/skills", global: "~/.qoder/skills", docs: "https://docs.qoder.com/cli/Skills" },
  { id: "qoder-cn", name: "Qoder CN", project: ".qoder/skills", global: "~/.qoder-cn/skills", docs: "https://docs.qoder.com/cli/Skills" },
  { id: "qwen-code", name: "Qwen Code", project: ".qwen/skills", global: "~/.qwen/skills", docs: "https://qwenlm.github.io/qwen-code-docs/en/users/features/skills/" },
  { id: "replit", name: "Replit", project: ".agents/skills", global: "$XDG_CONFIG_HOME/agents/skills", docs: "https://docs.replit.com/replitai/skills" },
  { id: "reasonix", name: "Reasonix", project: ".reasonix/skills", global: "~/.reasonix/skills", docs: NPX_TABLE },
  { id: "rovodev", name: "Rovo Dev", project: ".rovodev/skills", global: "~/.rovodev/skills", docs: NPX_TABLE },
  { id: "roo", name: "Roo Code", project: ".roo/skills", global: "~/.roo/skills", detect: [".roomodes"], docs: "https://docs.roocode.com/features/skills" },
  { id: "sarvam-code", name: "Sarvam Code", project: ".agents/skills", global: "~/.agents/skills", docs: NPX_TABLE },
  { id: "tabnine-cli", name: "Tabnine CLI", project: ".tabnine/agent/skills", global: "~/.tabnine/agent/skills", docs: NPX_TABLE },
  { id: "terramind", name: "Terramind", project: ".terramind/skills", global: "~/.terramind/skills", docs: NPX_TABLE },
  { id: "tinycloud", name: "Tinycloud", project: ".tinycloud/skills", global: "~/.tinycloud/skills", docs: NPX_TABLE },
  { id: "trae", name: "Trae", project: ".trae/skills", global: "~/.trae/skills", docs: "https://docs.trae.ai/ide/skills" },
  { id: "trae-cn", name: "Trae CN", project: ".trae/skills", global: "~/.trae-cn/skills", docs: "https://docs.trae.ai/ide/skills" },
  { id: "warp", name: "Warp", project: ".agents/skills", global: "~/.agents/skills", docs: NPX_TABLE },
  { id: "windsurf", name: "Windsurf", project: ".windsurf/skills", global: "~/.codeium/windsurf/skills", docs: "https://docs.windsurf.com/windsurf/cascade/skills" },
  { id: "zed", name: "Zed", project: ".agents/skills", global: "~/.agents/skills", docs: NPX_TABLE },
  { id: "zcode", name: "ZCode", project: ".zcode/skills", global: "~/.zcode/skills", docs: NPX_TABLE },
  { id: "zencoder", name: "Zencoder", project: ".zencoder/skills", global: "~/.zencoder/skills", docs: NPX_TABLE },
  { id: "zenflow", name: "Zenflow", project: ".zencoder/skills", global: "~/.zencoder/skills", docs: NPX_TABLE },
  { id: "neovate", name: "Neovate", project: ".neovate/skills", global: "~/.neovate/skills", docs: NPX_TABLE },
  { id: "pochi", name: "Pochi", project: ".pochi/skills", global: "~/.pochi/skills", docs: NPX_TABLE },
  { id: "promptscript", name: "PromptScript", project: ".agents/skills", docs: NPX_TABLE },
  { id: "adal", name: "AdaL", project: ".adal/skills", global: "~/.adal/skills", docs: NPX_TABLE },
  { id: "universal", name: "Universal", project: ".agents/skills", global: "$XDG_CONFIG_HOME/agents/skills", docs: "https://agentskills.io/integrate-skills" },
];
