import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";

/** What a skill page's id names in the caller's view: one skill, several (a plain name some share), or none. */
export type Lookup =
  | { readonly skill: CatalogSkill }
  | { readonly candidates: readonly CatalogSkill[] }
  | { readonly none: true };

/**
 * A qualified id names its skill; a plain name names the one skill of that name the caller may
 * see. When several share it (one shadowing the others), the page lists them rather than pick one.
 */
export function lookUp(skills: readonly CatalogSkill[], id: string): Lookup {
  const exact = skills.find((skill) => skill.qualifiedId === id);
  if (exact) return { skill: exact };
  const named = skills.filter((skill) => skill.name === id);
  if (named.length === 1) return { skill: named[0]! };
  if (named.length > 1) return { candidates: named };
  return { none: true };
}
