import type { CatalogSkill } from "../../skills/catalog.js";

export const LIST_FORMATS = ["names-only", "json", "full"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export interface ListedSkill {
  /** What to call the skill by: its name, or its qualified id when another skill wins that name. */
  id: string;
  name: string;
  source: string;
  description?: string;
  path?: string;
}

export interface SkillList {
  format: ListFormat;
  total: number;
  skills: ListedSkill[];
}

/**
 * The structured answer, sorted by name (a stable sort keeps the winner of a name before the
 * skills it shadows). names-only stays small because agents pay for every token of it.
 */
export function toSkillList(skills: readonly CatalogSkill[], format: ListFormat): SkillList {
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    format,
    total: skills.length,
    skills: sorted.map((skill) =>
      format === "names-only"
        ? { id: skill.id, name: skill.name, source: skill.source }
        : { id: skill.id, name: skill.name, source: skill.source, description: skill.description, path: skill.path },
    ),
  };
}

/** The text answer, in the three formats of the original skills-lister. */
export function renderSkillList(list: SkillList, sources: readonly string[]): string {
  if (list.format === "json") {
    return JSON.stringify({ total: list.total, skills: list.skills.map(({ id, name, description, source, path }) => ({ id, name, description, source, path })) });
  }
  if (list.total === 0) {
    return sources.length === 0
      ? "No skills: no skill source is configured."
      : `No skills found in ${sources.join("; ")}.`;
  }
  if (list.format === "names-only") return list.skills.map((s) => s.id).join("\n");
  const blocks = list.skills.map((s) => `## ${s.id}\nsource: ${s.source}${s.path ? ` (${s.path})` : ""}\n\n${s.description ?? ""}`);
  return [`# ${list.total} skill${list.total === 1 ? "" : "s"}`, ...blocks].join("\n\n");
}
