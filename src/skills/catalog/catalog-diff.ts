import type { CatalogChange, CatalogSkill } from "./catalog-types.js";

/** Same as far as a listener can tell; frontmatter objects are compared by content only when not the same object. */
function same(a: CatalogSkill, b: CatalogSkill): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.description === b.description &&
    a.path === b.path &&
    a.excerpt === b.excerpt &&
    a.artifact?.digest === b.artifact?.digest &&
    (a.frontmatter === b.frontmatter || JSON.stringify(a.frontmatter) === JSON.stringify(b.frontmatter))
  );
}

/** What listeners hear when the catalog's skills go from `before` to `after`, matched by qualified id. */
export function diff(before: readonly CatalogSkill[], after: readonly CatalogSkill[]): CatalogChange {
  const old = new Map(before.map((skill) => [skill.qualifiedId, skill]));
  const added: CatalogSkill[] = [];
  const updated: CatalogSkill[] = [];
  for (const skill of after) {
    const was = old.get(skill.qualifiedId);
    if (!was) added.push(skill);
    else if (!same(was, skill)) updated.push(skill);
    old.delete(skill.qualifiedId);
  }
  return { added, removed: [...old.values()], updated };
}
