import { SEVERITIES, type AuditFinding, type AuditSeverity } from "./types.js";
import { contextOf, isScript, unitsOf } from "./file-units.js";
import { normaliseForMatching } from "./normalise.js";
import { BINARY_RULES, TEXT_RULES } from "./rules/index.js";

/** Bytes of a file looked at to tell text from binary, as git does: a NUL means binary. */
const SNIFF_BYTES = 8_000;

const decoder = new TextDecoder();

/**
 * Each rule's trigger, case-insensitive. One alternation of them all is slower in V8 than each
 * alone, and a test stops at the first match, so a common trigger costs little.
 */
const TRIGGERS = new Map(TEXT_RULES.map((rule) => [rule, new RegExp(rule.trigger.source, "im")]));

function lower(a: AuditSeverity, b: AuditSeverity | undefined): AuditSeverity {
  return b !== undefined && SEVERITIES.indexOf(b) > SEVERITIES.indexOf(a) ? b : a;
}

/** Whether bytes look binary (a NUL in the first few kilobytes). */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * The findings of every rule in one file. `path` is relative to the skill folder; the skill's
 * SKILL.md is read with its frontmatter. Pure: it reads only the bytes given.
 */
export function auditFile(path: string, bytes: Uint8Array, isSkillDocument = false): AuditFinding[] {
  const binary = isBinary(bytes);
  const findings: AuditFinding[] = binary
    ? BINARY_RULES.flatMap((rule) => {
        const message = rule.check(bytes);
        return message === undefined ? [] : [{ rule: rule.id, severity: rule.severity, file: path, line: 0, message }];
      })
    : [];
  // A NUL does not stop a shell from running the lines around it: a script is read as text whatever it holds.
  if (binary && !isScript(path, bytes)) return findings;
  const text = decoder.decode(bytes);
  findings.push(...textFindings(path, text, isSkillDocument));
  // The same text as an agent understands it: what only shows once decoded or folded was hidden.
  // A script is read again whole (a flow may pass through lines that did not change); other
  // files only at the lines that did.
  const normalised = normaliseForMatching(text, contextOf(path, text) !== "script" || isSkillDocument);
  if (normalised !== text) {
    const seen = new Set(findings.map((finding) => `${finding.rule}:${finding.line}`));
    for (const finding of textFindings(path, normalised, isSkillDocument)) {
      if (seen.has(`${finding.rule}:${finding.line}`)) continue;
      findings.push({ ...finding, message: `once hidden text is decoded: ${finding.message}` });
    }
  }
  return findings.sort((a, b) => a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
}

/**
 * Each rule is tried only on the units it weighs, and only where its trigger matches: a rule
 * about code does not scan prose.
 */
function textFindings(path: string, text: string, isSkillDocument: boolean): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const unit of unitsOf(path, text, isSkillDocument)) {
    for (const rule of TEXT_RULES) {
      const severity = rule.severityIn[unit.context];
      if (severity === undefined || !TRIGGERS.get(rule)!.test(unit.text)) continue;
      for (const hit of rule.check(unit)) {
        findings.push({
          rule: rule.id,
          severity: lower(severity, hit.severity),
          file: path,
          line: unit.firstLine + hit.index,
          message: hit.message,
        });
      }
    }
  }
  return findings;
}

/** Whether any finding is high: what refuses an install and blocks serving. */
export function hasHighFinding(findings: readonly AuditFinding[]): boolean {
  return findings.some((finding) => finding.severity === "high");
}
