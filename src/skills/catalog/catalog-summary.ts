import { escapeForDisplay } from "../display-text.js";

/*
 * A catalog summary for the server's `instructions`: hosts that defer tool descriptions behind a
 * tool search show the model the instructions but no tool, so this is how it learns which skills
 * exist. Bounded, because instructions go into every conversation's context.
 */

/** A description longer than this is cut, at a word where one ends near the cut. */
export const SUMMARY_DESCRIPTION_CHARS = 200;

/** What a summary needs of a skill. */
export interface SummarySkill {
  readonly id: string;
  readonly description: string;
}

export interface CatalogSummary {
  readonly text: string;
  /** Skills named in `text`. */
  readonly listed: number;
  /** Skills left out to stay within the budget. */
  readonly omitted: number;
}

/**
 * One line per skill (`- id: description`), in catalog (precedence) order, until the next line
 * would not fit in `maxChars` together with the line that says how many were left out. The text
 * never exceeds `maxChars` unless the header and that line alone do.
 */
export function summarizeCatalog(skills: readonly SummarySkill[], maxChars: number): CatalogSummary {
  if (skills.length === 0) return { text: "This server serves no skills at the moment.", listed: 0, omitted: 0 };
  const header = `This server serves ${count(skills.length, "skill")}. Each is a folder of instructions (SKILL.md) for one kind of task:`;
  // Lines are made only until they pass maxChars: a catalog of thousands fills the budget with
  // its first few dozen, and the rest would be flattened and escaped for nothing.
  const lines: string[] = [];
  let whole = header.length;
  for (const skill of skills) {
    if (whole > maxChars) break;
    const line = `- ${oneLine(skill.id, 100)}: ${oneLine(skill.description, SUMMARY_DESCRIPTION_CHARS)}`;
    lines.push(line);
    whole += 1 + line.length;
  }
  if (whole <= maxChars) return { text: [header, ...lines].join("\n"), listed: skills.length, omitted: 0 };
  // Room for the widest "left out" line, so that whatever is left out can still be said.
  const room = maxChars - 1 - leftOut(skills.length, maxChars).length;
  let used = header.length;
  let listed = 0;
  while (listed < lines.length && used + 1 + lines[listed]!.length <= room) used += 1 + lines[listed++]!.length;
  const omitted = skills.length - listed;
  return { text: [header, ...lines.slice(0, listed), leftOut(omitted, maxChars)].join("\n"), listed, omitted };
}

function leftOut(omitted: number, maxChars: number): string {
  return `(and ${count(omitted, "more skill")}, left out to keep this summary within ${maxChars.toLocaleString("en-US")} characters)`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * Text from a SKILL.md as one line of at most `max` characters: whitespace runs (newlines
 * included) become one space, invisible and control characters are shown escaped, so a
 * description cannot start lines of its own in the instructions.
 */
export function oneLine(text: string, max: number): string {
  const flat = escapeForDisplay(text.replace(/\s+/g, " ").trim());
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1); // never half a surrogate pair
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
