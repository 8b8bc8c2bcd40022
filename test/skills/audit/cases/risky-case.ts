/*
 * Risky content written for the audit's generalisation tests: one file of a skill each, in the
 * place and language a real skill would hold it. A case is found when the audit reports a high
 * finding on a line holding one of its `payload` strings.
 */

/** The taxonomy of docs/security.md ("What the audit looks for"). */
export type RiskClass =
  | "injection"
  | "exfiltration"
  | "remote"
  | "persistence"
  | "destructive"
  | "hidden"
  | "deception";

export const RISK_CLASSES: readonly RiskClass[] = [
  "injection",
  "exfiltration",
  "remote",
  "persistence",
  "destructive",
  "hidden",
  "deception",
];

export interface RiskyCase {
  readonly class: RiskClass;
  /** Relative to the skill folder; "SKILL.md" is read with its frontmatter. */
  readonly path: string;
  readonly text: string;
  /** Text on the line (or lines) where the risk is. */
  readonly payload: string | readonly string[];
}

/** A SKILL.md with a plain frontmatter, or the one given. */
export const skillMd = (body: string, frontmatter = "name: demo\ndescription: A demo skill.") =>
  `---\n${frontmatter}\n---\n${body}`;

/** The 1-based lines of `text` holding any payload string. */
export function payloadLines(riskyCase: RiskyCase): number[] {
  const payloads = typeof riskyCase.payload === "string" ? [riskyCase.payload] : riskyCase.payload;
  return riskyCase.text
    .split("\n")
    .flatMap((line, index) => (payloads.some((payload) => line.includes(payload)) ? [index + 1] : []));
}
