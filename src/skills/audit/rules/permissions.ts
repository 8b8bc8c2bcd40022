import type { AuditRule, AuditSeverity, RuleHit } from "../types.js";
import { quoteLine } from "./line-rule.js";

/*
 * Configuration that widens what the agent may do without asking (OWASP LLM06, excessive
 * agency): the hosts read a skill's or an agent's frontmatter (`allowed-tools`, `tools`,
 * `permissionMode`, `hooks`) and their settings files (`permissions.allow`, `defaultMode`) as
 * grants, and their command lines take flags that turn every prompt off. A skill needs the tools
 * of its task, named: every shell command, every file, every site or no prompts at all is more.
 * Bare tool names (`allowed-tools: Bash`) are as wide but too common in real skills to report.
 */

interface Grant {
  readonly pattern: RegExp;
  readonly severity: AuditSeverity;
  readonly says: string;
  /** The contexts where the pattern is a grant; everywhere when absent. */
  readonly onlyIn?: ReadonlySet<string>;
}

/** Patterns that hold only wildcards: `*`, `**`, `*:*`, `:*`. */
const ANY = String.raw`\(\s*(?:[*:\s]*\*[*:\s]*)?\)`;
/** Every path: the root, the home folder, or a wildcard over either. */
const ANY_PATH = String.raw`\(\s*(?:\*\*?|\/\/?\*{0,2}|~\/?\*{0,2}|\$HOME\/?\*{0,2}|\/\/?\*\*\/\*|[A-Za-z]:[\\/]?\*{0,2})\s*\)`;

/** Where some grants configure anything: a frontmatter or a settings file. */
const CONFIGURATION: ReadonlySet<string> = new Set(["frontmatter", "data"]);

const GRANTS: readonly Grant[] = [
  {
    pattern:
      /\b(?:permission[-_]?mode|default[-_]?mode)["']?\s*[:=]\s*["']?(?:bypassPermissions|bypass[-_]permissions)\b/i,
    severity: "high",
    says: "turns every permission prompt off (bypassPermissions)",
  },
  {
    pattern:
      /--dangerously-skip-permissions\b|--allow-dangerously-skip-permissions\b|--permission-mode[=\s]+["']?bypassPermissions\b|--dangerously-bypass-approvals-and-sandbox\b|\bdangerously[-_]?skip[-_]?permissions["']?\s*[:=]\s*["']?true\b|\bskipDangerousModePermissionPrompt["']?\s*[:=]\s*["']?true\b/i,
    severity: "high",
    says: "runs an agent with every permission check skipped",
  },
  {
    pattern:
      /--yolo\b|--approval-mode[=\s]+["']?yolo\b|\bapproval[-_]?(?:mode|policy)["']?\s*[:=]\s*["']?(?:yolo|never)\b|--ask-for-approval[=\s]+["']?never\b|\bsandbox[-_]?mode["']?\s*[:=]\s*["']?danger-full-access\b|--sandbox[=\s]+["']?danger-full-access\b|--allow-all-(?:tools|paths)\b|--trust-all-tools\b|\bautoAccept["']?\s*:\s*true\b/i,
    severity: "high",
    says: "runs an agent that approves every action by itself",
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:Bash|Shell|PowerShell|run_shell_command|shell_command|execute_command|terminal)\s*${ANY}`,
      "i",
    ),
    severity: "high",
    says: "grants every shell command without asking",
  },
  {
    pattern: /\bBash\s*\(\s*(?:sudo|su|doas|pkexec)\b[^)]*\)/i,
    severity: "high",
    says: "grants commands as root without asking",
  },
  {
    pattern: new RegExp(String.raw`\b(?:Write|Edit|MultiEdit|NotebookEdit|write_file|replace)\s*${ANY_PATH}`),
    severity: "high",
    says: "grants writing any file without asking",
  },
  {
    pattern:
      /^\s*(?:-\s*)?["']?(?:allowed[-_]?tools|allowedTools|tools|allow)["']?\s*[:=]\s*\[?\s*["']?\*["']?\s*\]?\s*(?:#.*)?$|^\s*-\s*["']?\*["']?\s*$/,
    severity: "high",
    says: "grants every tool without asking",
    onlyIn: CONFIGURATION,
  },
  {
    pattern:
      /\bBash\s*\(\s*(?:rm|curl|wget|nc|ncat|ssh|scp|eval|exec|sh|bash|zsh|chmod|chown|dd|python[0-9.]*\s+-c|node\s+-e)\b\s*[:\s]*\*\s*\)/i,
    severity: "medium",
    says: "grants a command that can run or fetch anything, with any arguments, without asking",
  },
  {
    pattern: new RegExp(String.raw`\b(?:WebFetch|WebSearch|web_fetch)\s*(?:${ANY}|\(\s*domain\s*:\s*\*\s*\))`, "i"),
    severity: "medium",
    says: "grants fetching any site without asking",
  },
  {
    pattern: new RegExp(String.raw`\bRead\s*${ANY_PATH}|\bmcp__\*|\bmcp__[\w-]+__\*`),
    severity: "medium",
    says: "grants a whole class of tools without asking",
  },
  {
    pattern: /^\s*["']?(?:hooks)["']?\s*:\s*(?:\{|$)/,
    severity: "medium",
    says: "defines hooks, commands the host runs by itself on its events",
    onlyIn: new Set(["frontmatter"]),
  },
];

/**
 * A line of prose that configures (a key, as in an agent file's frontmatter; a command line):
 * a grant there is made, not talked about.
 */
const CONFIG_LINE = /^\s*(?:["']?[\w.-]+["']?\s*[:=]\s*[^\s`]|(?:claude|codex|gemini|copilot|q\s+chat)\s)/;

export const excessivePermissions: AuditRule = {
  id: "excessive-permissions",
  severity: "high",
  reason:
    "grants the agent more than a task needs: every shell command, every file or site, or no permission prompts at all",
  advice:
    "Name the tools and commands the skill needs (`Bash(git diff *)`, `Read`, `Grep`) and leave permission modes and prompts to the user.",
  sources: ["OWASP LLM06", "CWE-250", "ATT&CK T1548"],
  // In SKILL.md's frontmatter, an agent file's frontmatter, a settings file or a script, it is a
  // grant; in a code block it is an example to copy; in a sentence it may be a warning.
  severityIn: { frontmatter: "high", data: "high", script: "high", prose: "high", "doc-code": "medium" },
  trigger:
    /bypass|dangerously|yolo|approval|danger-full-access|allow-all|trust-all-tools|autoAccept|\(\s*[*:\s]*\*|\(\s*(?:sudo|su|doas|pkexec|rm|curl|wget|nc|ncat|ssh|scp|eval|exec|sh|bash|zsh|chmod|chown|dd|python|node)\b|\(\s*(?:\/|~|\$HOME|[a-z]:)|domain\s*:\s*\*|mcp__|^\s*-\s*["']?\*|(?:tools|allow)["']?\s*[:=]\s*\[?\s*["']?\*|^\s*["']?hooks["']?\s*:/,
  check(unit): RuleHit[] {
    const hits: RuleHit[] = [];
    unit.lines.forEach((line, index) => {
      const grant = GRANTS.find((candidate) => candidate.pattern.test(line));
      if (grant === undefined) return;
      if (grant.onlyIn !== undefined && !grant.onlyIn.has(unit.context)) return;
      const talkedAbout = unit.context === "prose" && !CONFIG_LINE.test(line);
      hits.push({
        index,
        message: `${grant.says}: ${quoteLine(line)}`,
        ...((grant.severity !== "high" || talkedAbout) && { severity: "medium" as const }),
      });
    });
    return hits;
  },
};
