import type { CatalogSkill, SkillCatalog } from "../../../skills/catalog.js";

/**
 * The skills one request may see on the catalog page: every page gets its list here and only
 * here, so that what a caller sees follows one rule. Today that is the whole catalog; with
 * per-team visibility it is the catalog filtered for the request's identity.
 */
export function pageCatalog(catalog: SkillCatalog, _request: Request): readonly CatalogSkill[] {
  return catalog.list();
}
