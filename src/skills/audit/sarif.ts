import { isAbsolute, join, relative, sep } from "node:path";
import type { Log } from "sarif";
import { type SarifLevel, type SarifRule, sarifLog } from "../../lib/sarif.js";
import { VERSION } from "../../version.js";
import { INCOMPLETE_RULE } from "./audit-skill.js";
import { BINARY_RULES, TEXT_RULES } from "./rules/index.js";
import type { AuditFinding, AuditRule, AuditSeverity, LineContext, RuleDescription } from "./types.js";

/*
 * The audit as SARIF 2.1.0, for GitHub code scanning and other reviewers' tools: every rule with
 * its help, one result per finding at its file and line.
 */

interface AuditedSkill {
  /** The skill's folder, as given on the command line joined with its path below it. */
  readonly path: string;
  readonly findings: readonly AuditFinding[];
}

const DOCS = "https://github.com/skills-kernel/skills-kernel/blob/main/docs/security.md#audit";

const LEVEL: Record<AuditSeverity, SarifLevel> = { high: "error", medium: "warning", low: "note" };
const SECURITY_SEVERITY: Record<AuditSeverity, number> = { high: 8, medium: 5, low: 2 };

const PLACES: Record<LineContext, string> = {
  script: "scripts",
  frontmatter: "SKILL.md's frontmatter",
  prose: "markdown prose",
  "doc-code": "markdown code blocks",
  data: "data files",
};

const OWASP: Record<string, { title: string; url: string }> = {
  LLM01: { title: "Prompt Injection", url: "https://genai.owasp.org/llmrisk/llm01-prompt-injection/" },
  LLM06: { title: "Excessive Agency", url: "https://genai.owasp.org/llmrisk/llm062025-excessive-agency/" },
};

/** A source id ("CWE-494", "ATT&CK T1098.004", "OWASP LLM01", "CVE-…") with its page. */
export function sourceLink(id: string): { url: string; tag?: string } {
  const cwe = /^CWE-(\d+)$/.exec(id);
  if (cwe) return { url: `https://cwe.mitre.org/data/definitions/${cwe[1]}.html`, tag: `external/cwe/cwe-${cwe[1]}` };
  const technique = /^ATT&CK (T\d{4})(?:\.(\d{3}))?$/.exec(id);
  if (technique)
    return { url: `https://attack.mitre.org/techniques/${technique[1]}/${technique[2] ? `${technique[2]}/` : ""}` };
  const owasp = /^OWASP (LLM\d\d)$/.exec(id);
  if (owasp && OWASP[owasp[1]!]) return { url: OWASP[owasp[1]!]!.url };
  if (/^CVE-\d{4}-\d+$/.test(id)) return { url: `https://www.cve.org/CVERecord?id=${id}` };
  throw new Error(`unknown source "${id}": add its page to sourceLink`);
}

/** "high in scripts and SKILL.md's frontmatter; low in markdown prose and markdown code blocks". */
function weights(rule: RuleDescription & Partial<Pick<AuditRule, "severityIn">>): string {
  if (rule.severityIn === undefined) return `${rule.severity} wherever it is found`;
  const bySeverity = new Map<AuditSeverity, string[]>();
  for (const [place, severity] of Object.entries(rule.severityIn) as [LineContext, AuditSeverity][])
    bySeverity.set(severity, [...(bySeverity.get(severity) ?? []), PLACES[place]]);
  const list = (items: string[]) =>
    items.length === 1 ? items[0]! : `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;
  return [...bySeverity].map(([severity, places]) => `${severity} in ${list(places)}`).join("; ");
}

function sarifRule(rule: RuleDescription & Partial<Pick<AuditRule, "severityIn">>): SarifRule {
  const reason = rule.reason.charAt(0).toUpperCase() + rule.reason.slice(1);
  const description = `${reason}. Reported ${weights(rule)}.`;
  const sources = rule.sources.map((id) => ({ id, ...sourceLink(id) }));
  const cited = sources.length === 0 ? "" : `Sources: ${sources.map((s) => s.id).join(", ")}. `;
  return {
    id: rule.id,
    level: LEVEL[rule.severity],
    summary: reason,
    description,
    help: {
      text: `${description}\n\nWhat to do: ${rule.advice}\n\n${cited}See ${DOCS}`,
      markdown: `${description}\n\n**What to do:** ${rule.advice}\n\n${
        sources.length === 0 ? "" : `Sources: ${sources.map((s) => `[${s.id}](${s.url})`).join(", ")}. `
      }What each rule looks for: [docs/security.md](${DOCS}).`,
    },
    helpUri: DOCS,
    securitySeverity: SECURITY_SEVERITY[rule.severity],
    tags: ["security", ...sources.flatMap((s) => (s.tag ? [s.tag] : []))],
  };
}

/** Every rule of the audit, as SARIF lists them. */
export const SARIF_RULES: readonly SarifRule[] = [...TEXT_RULES, ...BINARY_RULES, INCOMPLETE_RULE].map(sarifRule);

/** A file's path relative to `root` (the folder a scan uploads from), `/`-separated. */
function pathOf(skillPath: string, file: string, root: string): string {
  // A finding about the folder (too many files to audit) is shown on the skill's SKILL.md.
  const full = join(skillPath, file === "" ? "SKILL.md" : file);
  const shown = isAbsolute(full) ? relative(root, full) : full;
  return shown.split(sep).join("/");
}

/** The SARIF log of an audit of `skills`; paths relative to `root`. */
export function toSarif(skills: readonly AuditedSkill[], root: string): Log {
  return sarifLog(
    { name: "skills-kernel audit", version: VERSION, informationUri: DOCS, rules: SARIF_RULES },
    skills.flatMap((skill) =>
      skill.findings.map((finding) => ({
        ruleId: finding.rule,
        level: LEVEL[finding.severity],
        message: finding.message,
        file: pathOf(skill.path, finding.file, root),
        ...(finding.line > 0 && { line: finding.line }),
        // A message quotes the line it is about: without the line numbers it names, it is the
        // same finding wherever that line moves.
        identity: finding.message.replace(/\bline \d+/g, "line"),
      })),
    ),
  );
}
