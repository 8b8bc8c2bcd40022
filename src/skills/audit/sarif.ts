import { isAbsolute, relative, sep } from "node:path";
import { VERSION } from "../../version.js";
import { INCOMPLETE_REASON } from "./audit-skill.js";
import { BINARY_RULES, TEXT_RULES } from "./rules/index.js";
import type { AuditFinding, AuditSeverity } from "./types.js";

/*
 * The audit as SARIF 2.1.0, the format GitHub code scanning and other reviewers' tools read:
 * one run, the rules with their reasons, one result per finding at its file and line.
 */

interface AuditedSkill {
  /** The skill's folder, as given on the command line joined with its path below it. */
  readonly path: string;
  readonly findings: readonly AuditFinding[];
}

const LEVEL: Record<AuditSeverity, "error" | "warning" | "note"> = { high: "error", medium: "warning", low: "note" };

const RULES = [
  ...TEXT_RULES.map((rule) => ({ id: rule.id, severity: rule.severity, reason: rule.reason })),
  ...BINARY_RULES.map((rule) => ({ id: rule.id, severity: rule.severity, reason: rule.reason })),
  { id: "audit-incomplete", severity: "high" as const, reason: INCOMPLETE_REASON },
];

/** A file's URI relative to `root` (the repository a scan uploads from), with forward slashes. */
function uriOf(skillPath: string, file: string, root: string): string {
  const full = file === "" ? skillPath : `${skillPath}${sep}${file}`;
  const shown = isAbsolute(full) ? relative(root, full) : full;
  return encodeURI((shown === "" ? "." : shown).split(sep).join("/"));
}

/** The SARIF log of an audit of `skills`; paths relative to `root`. */
export function toSarif(skills: readonly AuditedSkill[], root: string): object {
  const index = new Map(RULES.map((rule, i) => [rule.id, i]));
  const results = skills.flatMap((skill) =>
    skill.findings.map((finding) => ({
      ruleId: finding.rule,
      ruleIndex: index.get(finding.rule) ?? -1,
      level: LEVEL[finding.severity],
      message: { text: finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: uriOf(skill.path, finding.file, root) },
            // A finding about a whole file (line 0) has no region.
            ...(finding.line > 0 && { region: { startLine: finding.line } }),
          },
        },
      ],
    })),
  );
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "skills-kernel audit",
            version: VERSION,
            rules: RULES.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.reason },
              defaultConfiguration: { level: LEVEL[rule.severity] },
              properties: {
                "security-severity": rule.severity === "high" ? "8.0" : rule.severity === "medium" ? "5.0" : "2.0",
                tags: ["security"],
              },
            })),
          },
        },
        results,
      },
    ],
  };
}
