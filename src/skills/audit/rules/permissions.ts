import type { AuditRule, AuditSeverity, RuleHit } from "../types.js";
import { factoredSource } from "./factored.js";
import { quoteLine, triggerLines } from "./line-rule.js";

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
const ANY = String.raw`\(\s*[*:\s]*\*[*:\s]*\)`;
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
      /^\s*(?:-\s*)?["']?(?:allowed[-_]?tools|allowedTools|tools|allow)["']?\s*[:=]\s*\[?\s*["']\*["']\s*\]?\s*,?\s*(?:#.*)?$|^\s*-?\s*["']\*["']\s*,?\s*$/,
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

const TRIGGER =
  /bypass|dangerous|yolo|approval|danger-full-access|allow-all|trust-all-tools|autoaccept|\(\s*[*:\s]*\*|bash\s*\(\s*(?:sudo|su|doas|pkexec|rm|curl|wget|nc|ncat|ssh|scp|eval|exec|sh|bash|zsh|chmod|chown|dd|python|node)\b|(?:write|edit|read|replace)\s*\(\s*(?:\/|~|\$home|[a-z]:)|domain\s*:\s*\*|mcp__|["']\*["']|hooks["']?\s*:\s*(?:\{|$)/;
/** The trigger, to find the lines it matches: each grant holds one of its literals. */
const GLOBAL_TRIGGER = new RegExp(factoredSource(TRIGGER.source), "gim");

export const excessivePermissions: AuditRule = {
  id: "excessive-permissions",
  severity: "high",
  reason:
    "grants the agent more than a task needs: every shell command, every file or site, or no permission prompts at all",
  advice:
    "Name the tools and commands the skill needs (`Bash(git diff *)`, `Read`, `Grep`) and leave permission modes and prompts to the user.",
  sources: ["OWASP LLM06", "CWE-250", "ATT&CK T1548"],
  // In a frontmatter (SKILL.md's, or an agent file's), a settings file or a script it is a grant;
  // in a code block, an example to copy. Prose talks about grants (often to warn against them).
  severityIn: { frontmatter: "high", data: "high", script: "high", "doc-code": "medium" },
  trigger: TRIGGER,
  check(unit): RuleHit[] {
    const hits: RuleHit[] = [];
    for (const { index, text: line } of triggerLines(unit, GLOBAL_TRIGGER)) {
      const grant = GRANTS.find((candidate) => candidate.pattern.test(line));
      if (grant === undefined || (grant.onlyIn !== undefined && !grant.onlyIn.has(unit.context))) continue;
      hits.push({
        index,
        message: `${grant.says}: ${quoteLine(line)}`,
        ...(grant.severity !== "high" && { severity: grant.severity }),
      });
    }
    return hits;
  },
};
