import type { Diagnostic, SourceSkill } from "../types.js";
import type { CatalogSkill } from "./catalog-types.js";

/** What a catalog (the whole one, or a caller's view) answers from, built once per load. */
export interface CatalogState {
  readonly skills: readonly CatalogSkill[];
  readonly byName: ReadonlyMap<string, CatalogSkill>;
  readonly byQualifiedId: ReadonlyMap<string, CatalogSkill>;
  /**
   * Skills at the same path as a higher-ranked skill of their source (two roots of one source
   * holding one relative path), by qualified id, to the qualified id of that skill. Sources name
   * skills by path, so only that skill's files can be served.
   */
  readonly samePathAs: ReadonlyMap<string, string>;
  readonly diagnostics: readonly Diagnostic[];
}

export const EMPTY_STATE: CatalogState = {
  skills: [],
  byName: new Map(),
  byQualifiedId: new Map(),
  samePathAs: new Map(),
  diagnostics: [],
};

function depth(path: string): number {
  return path === "" ? 0 : path.split("/").length;
}

/**
 * The identity rule (docs/sources.md, "Skill identity") over the sources given, in their
 * precedence order: then by each skill's rank, shallower folders, path order. The first skill of
 * each name answers to the plain name; the others to their qualified id.
 */
export function buildState(
  sources: readonly { source: string; skills: readonly SourceSkill[] }[],
  diagnostics: readonly Diagnostic[],
): CatalogState {
  // Each skill's depth taken once: in the comparator, it split two paths a comparison.
  const ordered = sources.flatMap(({ source, skills }) =>
    skills
      .map((skill) => ({ source, skill, depth: depth(skill.path) }))
      .sort(
        (a, b) =>
          a.skill.rank - b.skill.rank ||
          a.depth - b.depth ||
          (a.skill.path < b.skill.path ? -1 : a.skill.path > b.skill.path ? 1 : 0),
      ),
  );

  const namesPerSource = new Map<string, Map<string, number>>();
  for (const { source, skill } of ordered) {
    const counts = namesPerSource.get(source) ?? new Map<string, number>();
    counts.set(skill.name, (counts.get(skill.name) ?? 0) + 1);
    namesPerSource.set(source, counts);
  }

  const byName = new Map<string, CatalogSkill>();
  const byQualifiedId = new Map<string, CatalogSkill>();
  const firstAtPath = new Map<string, string>();
  const samePathAs = new Map<string, string>();
  const skills: CatalogSkill[] = [];
  for (const { source, skill } of ordered) {
    const uniqueInSource = namesPerSource.get(source)!.get(skill.name) === 1;
    let qualifiedId = `${source}:${uniqueInSource ? skill.name : skill.path || "."}`;
    // Two roots of one source can hold the same relative path; keep every skill reachable anyway.
    const base = qualifiedId;
    for (let n = 2; byQualifiedId.has(qualifiedId); n++) qualifiedId = `${base}#${n}`;
    // A name holding ":" (not a valid skill name) could pass for another skill's qualified id, so
    // such a skill answers to its own qualified id only.
    const shadowed = byName.has(skill.name) || skill.name.includes(":");
    const entry: CatalogSkill = {
      id: shadowed ? qualifiedId : skill.name,
      qualifiedId,
      name: skill.name,
      description: skill.description,
      source,
      path: skill.path,
      frontmatter: skill.frontmatter,
      excerpt: skill.excerpt,
      shadowed,
      ...(skill.artifact ? { artifact: skill.artifact } : {}),
    };
    if (!shadowed) byName.set(skill.name, entry);
    byQualifiedId.set(qualifiedId, entry);
    skills.push(entry);
    const place = JSON.stringify([source, skill.path]);
    const first = firstAtPath.get(place);
    if (first === undefined) firstAtPath.set(place, qualifiedId);
    else samePathAs.set(qualifiedId, first);
  }
  return { skills, byName, byQualifiedId, samePathAs, diagnostics };
}
