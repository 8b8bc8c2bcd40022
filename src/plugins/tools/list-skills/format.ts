import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import { whenToUse } from "../../../skills/skill-md/claude-fields.js";

export const LIST_FORMATS = ["names-only", "json", "full"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/**
 * Skills per page, by format: json and full carry a description each, names-only a name, so
 * names-only pages hold more and every page stays a modest answer.
 */
export const PAGE_SIZES: Readonly<Record<ListFormat, number>> = { "names-only": 1000, json: 100, full: 100 };

/** The largest page a caller may ask for (the CLI asks for it, to print a whole catalog at once). */
export const MAX_PAGE_SIZE = 100_000;

export interface ListedSkill {
  /** What to call the skill by: its name, or its qualified id when another skill wins that name. */
  id: string;
  name: string;
  source: string;
  description?: string;
  /** Claude Code's `when_to_use`, when the skill has one: when it applies, beside the description. */
  when_to_use?: string;
  path?: string;
}

/** A source the answer lacks, or has only an old copy of. */
export interface UnavailableSource {
  source: string;
  /** stale: its last good snapshot is listed; failed: none of its skills are; loading: not yet. */
  state: "stale" | "failed" | "loading";
  error?: string;
}

export interface SkillList {
  format: ListFormat;
  total: number;
  skills: ListedSkill[];
  /** Present when a source could not be loaded this time. */
  unavailable_sources?: UnavailableSource[];
  /** Set when more skills follow this page. */
  next_cursor?: string;
}

const sortedListings = new WeakMap<readonly CatalogSkill[], readonly CatalogSkill[]>();

/**
 * A catalog listing sorted by name (a stable sort keeps the winner of a name before the skills it
 * shadows). The catalog replaces its listing on each change, so each listing is sorted once,
 * however many pages are asked of it.
 */
export function sortedByName(skills: readonly CatalogSkill[]): readonly CatalogSkill[] {
  let sorted = sortedListings.get(skills);
  if (!sorted) {
    sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    sortedListings.set(skills, sorted);
  }
  return sorted;
}

/**
 * The structured answer for one page of skills, in the order given; `total` counts the whole
 * catalog. names-only stays small because agents pay for every token of it.
 */
export function toSkillList(sorted: readonly CatalogSkill[], format: ListFormat, total = sorted.length): SkillList {
  return {
    format,
    total,
    skills: sorted.map((skill) =>
      format === "names-only"
        ? { id: skill.id, name: skill.name, source: skill.source }
        : withWhenToUse(
            { id: skill.id, name: skill.name, source: skill.source, description: skill.description, path: skill.path },
            skill,
          ),
    ),
  };
}

function withWhenToUse(listed: ListedSkill, skill: CatalogSkill): ListedSkill {
  const when = whenToUse(skill);
  return when === undefined ? listed : { ...listed, when_to_use: when };
}

/** The text answer, in the three formats of the original skills-lister. */
export function renderSkillList(list: SkillList, sources: readonly string[]): string {
  const more =
    (list.next_cursor === undefined
      ? ""
      : `\n\n${list.total} skills in all; for the next page, call list_skills with cursor ${JSON.stringify(list.next_cursor)}.`) +
    (list.unavailable_sources ?? []).map((u) => `\n\n${describeUnavailable(u)}`).join("");
  if (list.format === "json") {
    const skills = list.skills.map(({ id, name, description, when_to_use, source, path }) => ({
      id,
      name,
      description,
      when_to_use,
      source,
      path,
    }));
    return JSON.stringify({
      total: list.total,
      skills,
      ...(list.next_cursor === undefined ? {} : { next_cursor: list.next_cursor }),
      ...(list.unavailable_sources === undefined ? {} : { unavailable_sources: list.unavailable_sources }),
    });
  }
  if (list.total === 0) {
    // Nothing listed yet is not "no skills" while a source is still loading.
    const loading = (list.unavailable_sources ?? []).filter((u) => u.state === "loading").map((u) => `"${u.source}"`);
    if (loading.length > 0)
      return `No skills listed yet: ${loading.join(", ")} ${loading.length === 1 ? "is" : "are"} still loading; ask again shortly.${more}`;
    return sources.length === 0
      ? "No skills: no skill source is configured."
      : `No skills found in ${sources.join("; ")}.${more}`;
  }
  if (list.format === "names-only") return list.skills.map((s) => s.id).join("\n") + more;
  const blocks = list.skills.map(
    (s) =>
      `## ${s.id}\nsource: ${s.source}${s.path ? ` (${s.path})` : ""}\n\n${s.description ?? ""}${s.when_to_use ? `\n\nWhen to use: ${s.when_to_use}` : ""}`,
  );
  return [`# ${list.total} skill${list.total === 1 ? "" : "s"}`, ...blocks].join("\n\n") + more;
}

/** One line an agent can act on: which source, what it means for the answer, and why. */
export function describeUnavailable({ source, state, error }: UnavailableSource): string {
  const why = error === undefined ? "" : ` (${error})`;
  if (state === "loading")
    return `Note: source "${source}" is still loading; its skills are not listed yet: ask again shortly.`;
  return state === "stale"
    ? `Note: source "${source}" could not be reloaded${why}; its skills are from its last good load.`
    : `Note: source "${source}" could not be loaded${why}; none of its skills are listed.`;
}
