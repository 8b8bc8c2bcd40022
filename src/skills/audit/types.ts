/*
 * The audit's vocabulary: what a finding is, and what a rule looks at. Rules only read text; they
 * never run what a skill holds.
 */

export type AuditSeverity = "high" | "medium" | "low";

export const SEVERITIES: readonly AuditSeverity[] = ["high", "medium", "low"];

/** One thing a rule found, where it found it. */
export interface AuditFinding {
  readonly rule: string;
  readonly severity: AuditSeverity;
  /** Relative to the skill folder, POSIX separators ("SKILL.md" for the skill's document). */
  readonly file: string;
  /** Counted from 1, the frontmatter included; 0 for a finding about the whole file. */
  readonly line: number;
  readonly message: string;
}

/**
 * Where a line sits, which decides how much a pattern there weighs:
 * - `frontmatter`: a markdown file's frontmatter (SKILL.md's, an agent's or a command's), which hosts read as configuration (hooks, allowed tools);
 * - `script`: a file an agent would run (by extension or shebang);
 * - `prose`: markdown an agent reads as instructions;
 * - `doc-code`: a fenced code block in markdown: an example shown to a reader, not a file that runs;
 * - `data`: any other text (JSON, YAML, CSV): only hidden characters matter there.
 */
export type LineContext = "frontmatter" | "script" | "prose" | "doc-code" | "data";

/** A run of lines of one context: a script, a frontmatter, a code block, the prose between them. */
export interface TextUnit {
  readonly context: LineContext;
  /** The unit's text: a slice of the file's. */
  readonly text: string;
  /** The unit's lines, without their line breaks (split when first read). */
  readonly lines: readonly string[];
  /** The file line (from 1) of `lines[0]`. */
  readonly firstLine: number;
  /** The fenced block's info string ("bash", "python"), lowercased; "" elsewhere. */
  readonly language: string;
}

/** What one rule reports: a line of the unit (index into `lines`) and what it saw there. */
export interface RuleHit {
  readonly index: number;
  readonly message: string;
  /** Lower than the rule's severity for this hit (a milder variant); never raises it. */
  readonly severity?: AuditSeverity;
}

/** What every rule says of itself, for reports and code scanning's rule help. */
export interface RuleDescription {
  readonly id: string;
  readonly severity: AuditSeverity;
  /** One line: what it reports and why that matters. */
  readonly reason: string;
  /** What a reviewer should do about a finding, in a sentence or two. */
  readonly advice: string;
  /**
   * The public taxonomies the class of risk comes from: "OWASP LLM01", "CWE-494",
   * "ATT&CK T1105" (docs/security.md links each).
   */
  readonly sources: readonly string[];
}

/**
 * A rule: an id, its severity where it counts fully, a one-line reason, and a check over a unit.
 * `severityIn` lowers (or drops, with undefined) the severity by context: a reverse shell in a
 * code block of a security guide is worth a look, one in a script is worth refusing.
 */
export interface AuditRule extends RuleDescription {
  /** The contexts the rule reads, each with the severity it reports there. */
  readonly severityIn: Partial<Readonly<Record<LineContext, AuditSeverity>>>;
  /**
   * A cheap pattern that matches, case-insensitively and with `^`/`$` at lines, somewhere in any
   * file the rule can report on: a rule whose trigger does not match skips the file.
   */
  readonly trigger: RegExp;
  /**
   * Whether the rule is also tried on prose and data with each line joined to the next, and on
   * one file's last line joined to another's first: an instruction reads the same across a break.
   */
  readonly readsAcrossLines?: boolean;
  check(unit: TextUnit): readonly RuleHit[];
}

/** A rule over the raw bytes of a file that is not text (an executable). */
export interface BinaryRule extends RuleDescription {
  check(bytes: Uint8Array): string | undefined;
}
