import type { CatalogSkill } from "../catalog/catalog-types.js";
import { SUMMARY_DESCRIPTION_CHARS } from "../catalog/catalog-summary.js";
import { whenToUse } from "../skill-md/claude-fields.js";
import { declaredTriggers, extractTriggers } from "../skill-md/skill-fields.js";
import { MAX_DESCRIPTION_CHARS } from "../skill-md/skill-md.js";

/** What a description lacks or has too much of, for an agent choosing from a listing. */
export interface DescriptionProblem {
  readonly code: "no-trigger" | "too-short" | "too-long" | "trigger-late" | "name-clash";
  readonly message: string;
}

/** Under this, a description rarely says both what the skill does and when to use it. */
export const MIN_DESCRIPTION_CHARS = 50;
/** Claude Code cuts a listed description and `when_to_use` together to this (listing-budgets.ts). */
const LISTED_CHARS = 1_536;

/**
 * What keeps a skill's description from being picked out of a listing: no phrase saying when it
 * applies, too short or too long to be listed whole, its "when" past where listings cut, or a name
 * another source's skill also has (only one of them answers to it).
 */
export function descriptionProblems(skill: CatalogSkill, all: readonly CatalogSkill[]): DescriptionProblem[] {
  const problems: DescriptionProblem[] = [];
  const { description } = skill;
  const triggers = extractTriggers(description);
  const when = whenToUse(skill);
  if (triggers.length === 0 && !when && declaredTriggers(skill.frontmatter).length === 0)
    problems.push({
      code: "no-trigger",
      message:
        'no phrase says when to use it ("Use when …", or when_to_use): agents match a request against when a skill applies',
    });
  if (description.length < MIN_DESCRIPTION_CHARS)
    problems.push({
      code: "too-short",
      message: `its description is ${description.length} characters: too few to say what it does and when to use it`,
    });
  if (description.length > MAX_DESCRIPTION_CHARS)
    problems.push({
      code: "too-long",
      message: `its description is ${description.length} characters, over the ${MAX_DESCRIPTION_CHARS} the Agent Skills specification allows`,
    });
  else if (description.length + (when ? when.length + 1 : 0) > LISTED_CHARS)
    problems.push({
      code: "too-long",
      message: `its description and when_to_use take ${description.length + (when?.length ?? 0) + 1} characters: Claude Code lists ${LISTED_CHARS} of them`,
    });
  const whenAt = triggerStart(description);
  if (whenAt !== undefined && whenAt >= SUMMARY_DESCRIPTION_CHARS)
    problems.push({
      code: "trigger-late",
      message: `its "when" starts at character ${whenAt + 1}: listings that cut descriptions short (this server's summary keeps ${SUMMARY_DESCRIPTION_CHARS}) lose it; say it first`,
    });
  const namesakes = all.filter((other) => other.name === skill.name && other.qualifiedId !== skill.qualifiedId);
  if (namesakes.length > 0) {
    const others = namesakes.map((other) => `${other.id} (source ${other.source})`).join(", ");
    problems.push({
      code: "name-clash",
      message: skill.shadowed
        ? `its name is also ${others}'s, which answers to it: this one answers to ${skill.id} only`
        : `its name is also that of ${others}, which answers to its qualified id only`,
    });
  }
  return problems;
}

/** Where the description's first trigger phrase starts, if it has one. */
function triggerStart(description: string): number | undefined {
  const at = description.search(/\b(?:use\s+(?:it\s+|this\s+skill\s+)?when|triggers?\s+on|use\s+for)\b/i);
  return at === -1 ? undefined : at;
}
