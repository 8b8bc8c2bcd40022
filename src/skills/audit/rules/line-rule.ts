import { escapeForDisplay } from "../../display-text.js";
import { lineEnd, lineText } from "../file-units.js";
import { factoredSource } from "./factored.js";
import type { AuditRule, AuditSeverity, RuleHit, TextUnit } from "../types.js";

/** Characters of the offending line a message quotes at most. */
const QUOTED_CHARS = 100;

/** The line as a message quotes it: trimmed, invisible characters escaped, cut short. */
export function quoteLine(line: string): string {
  const shown = escapeForDisplay(line.trim());
  return JSON.stringify(shown.length > QUOTED_CHARS ? `${shown.slice(0, QUOTED_CHARS - 1)}…` : shown);
}

/** A line of a unit: its index into `lines`, and its text. */
export interface IndexedLine {
  readonly index: number;
  readonly text: string;
}

/**
 * The lines on which `trigger` (global) starts a match. Each match of a rule's patterns holds
 * one of its trigger's, so only these lines can match: one pass over the unit instead of one
 * per pattern. After a hit the search moves to the next line, so no match hides another. Each
 * line is cut from the unit's text, as `lines` would hold it: a rule reads a few lines of a
 * unit, and splitting it whole was most of what the audit allocated.
 */
export function triggerLines(unit: TextUnit, trigger: RegExp): IndexedLine[] {
  const text = unit.text;
  const found: IndexedLine[] = [];
  let line = 0;
  let lineStart = 0;
  trigger.lastIndex = 0;
  for (let match = trigger.exec(text); match; match = trigger.exec(text)) {
    for (
      let next = text.indexOf("\n", lineStart);
      next !== -1 && next < match.index;
      next = text.indexOf("\n", lineStart)
    ) {
      line++;
      lineStart = next + 1;
    }
    const end = lineEnd(text, match.index);
    found.push({ index: line, text: lineText(text, lineStart, end) });
    if (end === text.length) break;
    trigger.lastIndex = end + 1;
  }
  return found;
}

/** The lines where any pattern matches, among those the trigger allows. */
export function linesMatching(unit: TextUnit, patterns: readonly RegExp[], trigger: RegExp): IndexedLine[] {
  return triggerLines(unit, trigger).filter((line) => patterns.some((pattern) => pattern.test(line.text)));
}

export interface LineRuleSpec extends Omit<AuditRule, "check" | "trigger"> {
  /** Any of these on a line is a hit. Neither global nor sticky: they are reused. */
  readonly patterns: readonly RegExp[];
  /** What a hit says, before the quoted line. */
  readonly says: string;
  /** Lines that match but are known to be harmless (a comment, a placeholder). */
  readonly unless?: RegExp;
  /**
   * The severity of a match inside quotation marks or backticks on its line: a phrase quoted is
   * talked about (a scanner's list of attacks), not said, though an agent still reads it.
   */
  readonly quoted?: AuditSeverity;
  /** The severity of a match on a line that warns against it ("never run `rm -rf /`"). */
  readonly warned?: AuditSeverity;
  /** See AuditRule: literals each match of the patterns holds, so one fast pass finds them. */
  readonly trigger: RegExp;
}

/** Whether the text before a match leaves a quotation or a code span open. */
function insideQuotes(before: string): boolean {
  const count = (mark: string) => before.split(mark).length - 1;
  return (
    count('"') % 2 === 1 ||
    count("`") % 2 === 1 ||
    count("\u201c") > count("\u201d") ||
    count("\u2018") > count("\u2019")
  );
}

const WARNING =
  /\b(?:never|don't|do\s+not|avoid|dangerous|danger|warning|careful|destructive|forbidden|blocks?|denied|deny|prevents?|refuses?|e\.g\.|such\s+as|example)\b/i;

/** A rule that is one or more patterns, each matched within a line. */
export function lineRule(spec: LineRuleSpec): AuditRule {
  // Case-insensitive, as the audit tests a trigger before it runs a rule.
  const trigger = new RegExp(factoredSource(spec.trigger.source), "gim");
  return {
    id: spec.id,
    severity: spec.severity,
    reason: spec.reason,
    advice: spec.advice,
    sources: spec.sources,
    ...(spec.readsAcrossLines && { readsAcrossLines: true }),
    severityIn: spec.severityIn,
    trigger: spec.trigger,
    check(unit): RuleHit[] {
      return linesMatching(unit, spec.patterns, trigger)
        .filter((found) => !spec.unless?.test(found.text))
        .map(({ index, text: line }) => {
          const message = `${spec.says}: ${quoteLine(line)}`;
          if (spec.warned !== undefined && WARNING.test(line))
            return {
              index,
              message: `warns against a line that ${spec.says.replace(/^(\w+)s\b/, "would $1")}: ${quoteLine(line)}`,
              severity: spec.warned,
            };
          // In frontmatter and data files quotation marks are the format's, not a quotation.
          if (spec.quoted === undefined || (unit.context !== "prose" && unit.context !== "script"))
            return { index, message };
          const at = Math.min(...spec.patterns.map((pattern) => pattern.exec(line)?.index ?? Infinity));
          return insideQuotes(line.slice(0, at))
            ? {
                index,
                message: `quotes a phrase that ${spec.says.replace(/^asks/, "would ask")}: ${quoteLine(line)}`,
                severity: spec.quoted,
              }
            : { index, message };
        });
    },
  };
}

/** Severity by context for rules about code: full in scripts and frontmatter, `docs` in markdown. */
export function codeSeverity(full: AuditRule["severity"], docs?: AuditRule["severity"]): AuditRule["severityIn"] {
  return docs === undefined
    ? { script: full, frontmatter: full }
    : { script: full, frontmatter: full, "doc-code": docs, prose: docs };
}
