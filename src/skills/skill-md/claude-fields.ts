/**
 * Claude Code's frontmatter fields beyond the spec (code.claude.com, "Skills"), read the one way
 * every tool, prompt and ranker reads them. Frontmatter is untrusted plain data: a field of the
 * wrong type counts as absent.
 */
interface WithFrontmatter {
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/** More than a description holds is not a hint any more. */
const MAX_HINT_CHARS = 1_024;

function text(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.replace(/\s+/g, " ").trim();
  return trimmed === "" ? undefined : trimmed.slice(0, MAX_HINT_CHARS);
}

/** `when_to_use`: when the skill applies, said beside its description (searched, and shown by list_skills and read_skill). */
export function whenToUse(skill: WithFrontmatter): string | undefined {
  return text(skill.frontmatter.when_to_use);
}

/** False for `disable-model-invocation: true`: kept out of search, list_skills and the catalog summary; still read by name and still a prompt. */
export function offeredToModel(skill: WithFrontmatter): boolean {
  return skill.frontmatter["disable-model-invocation"] !== true;
}

/** False for `user-invocable: false`: no prompt of its own. */
export function userInvocable(skill: WithFrontmatter): boolean {
  return skill.frontmatter["user-invocable"] !== false;
}

/** `argument-hint`: what the skill's prompt takes as its arguments (`[issue-number]`). */
export function argumentHint(skill: WithFrontmatter): string | undefined {
  return text(skill.frontmatter["argument-hint"]);
}
