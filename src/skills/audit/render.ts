import { escapeForDisplay } from "../display-text.js";
import type { AuditFinding } from "./types.js";

interface Rendered {
  readonly name: string;
  readonly path: string;
  readonly findings: readonly AuditFinding[];
}

/** Where a finding is, as people read it: file:line, or the file alone for a whole-file finding. */
export function findingPlace(finding: AuditFinding): string {
  const file = escapeForDisplay(finding.file || ".");
  return finding.line > 0 ? `${file}:${finding.line}` : file;
}

/** One line per finding, indented under its skill. */
export function renderFindings(findings: readonly AuditFinding[], indent = "  "): string[] {
  return findings.map((f) => `${indent}${f.severity.padEnd(6)} ${f.rule}  ${findingPlace(f)}  ${f.message}`);
}

/** The audit of several skills for a terminal: each skill, its findings, then a count. */
export function renderAudit(skills: readonly Rendered[]): string {
  const lines: string[] = [];
  for (const skill of skills) {
    lines.push(
      `${escapeForDisplay(skill.name)} (${escapeForDisplay(skill.path)}): ${skill.findings.length === 0 ? "no findings" : `${skill.findings.length} findings`}`,
    );
    lines.push(...renderFindings(skill.findings));
  }
  const count = (severity: string) =>
    skills.filter((skill) => skill.findings.some((f) => f.severity === severity)).length;
  const audited = `${skills.length} ${skills.length === 1 ? "skill" : "skills"} audited`;
  lines.push(
    "",
    `${audited}: ${count("high")} with high findings, ${count("medium")} with medium, ${count("low")} with low`,
  );
  return lines.join("\n");
}
