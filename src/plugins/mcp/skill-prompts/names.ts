import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import { userInvocable } from "../../../skills/skill-md/claude-fields.js";

/** The prompt that lists what is served (and gets any skill by id). */
export const LISTING_PROMPT = "skills";

/**
 * What a prompt name may be: clients offer prompts as slash commands, so the tool-name rule of
 * MCP (letters, digits, "_", "-", "."; at most 64 here, as skill names are).
 */
const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** A skill with a prompt of its own, named after it. */
export interface SkillPrompt {
  readonly name: string;
  readonly skill: CatalogSkill;
}

/** A skill without a prompt of its own, and why; the listing prompt still reaches it. */
export interface SkippedSkill {
  readonly skill: CatalogSkill;
  readonly reason: string;
}

/**
 * Which skills get a prompt of their own: each skill that answers to its plain name, named by it,
 * in catalog order. Left out: shadowed skills (their ids hold a ":"), names no prompt name can be,
 * the listing prompt's own name, and a name that only letter case tells from an earlier one
 * (clients that fold case would offer two commands for one).
 */
export function planSkillPrompts(skills: readonly CatalogSkill[]): { prompts: SkillPrompt[]; skipped: SkippedSkill[] } {
  const prompts: SkillPrompt[] = [];
  const skipped: SkippedSkill[] = [];
  // The listing prompt's name is taken first, in every letter case.
  const folded = new Map<string, string>([[LISTING_PROMPT, LISTING_PROMPT]]);
  for (const skill of skills) {
    if (skill.shadowed) continue;
    const name = skill.id;
    if (!PROMPT_NAME.test(name)) {
      skipped.push({
        skill,
        reason: "its name cannot be a prompt name (letters, digits, '_', '-' and '.', at most 64)",
      });
      continue;
    }
    if (!userInvocable(skill)) {
      skipped.push({ skill, reason: "its frontmatter says user-invocable: false" });
      continue;
    }
    if (name === LISTING_PROMPT) {
      skipped.push({ skill, reason: `"${LISTING_PROMPT}" is the prompt that lists every skill` });
      continue;
    }
    const earlier = folded.get(name.toLowerCase());
    if (earlier !== undefined) {
      skipped.push({ skill, reason: `its prompt would differ only in letter case from that of "${earlier}"` });
      continue;
    }
    folded.set(name.toLowerCase(), name);
    prompts.push({ name, skill });
  }
  return { prompts, skipped };
}
