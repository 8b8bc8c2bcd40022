import type { WholeCatalog } from "./catalog.js";

/**
 * The catalog as one caller may see it: what every tool, resource, prompt, instructions section
 * and route gets in its context, already scoped to its caller (`WholeCatalog.for`). It cannot be
 * widened: a view has no `for`, and the whole catalog is a service of its own
 * (`TOKENS.WholeCatalog`) that a plugin must declare.
 */
export type SkillCatalogView = Pick<
  WholeCatalog,
  | "list"
  | "get"
  | "resolve"
  | "readDocument"
  | "listFiles"
  | "readFile"
  | "ready"
  | "refresh"
  | "within"
  | "status"
  | "unavailable"
  | "loading"
  | "diagnostics"
  | "sources"
  | "onChange"
  | "announcingAwaitedChange"
  | "restricted"
  | "listingTtlMs"
>;

// The kernel hands every handler a CatalogView without knowing what one is: this is what it is.
declare module "../../kernel/types.js" {
  interface CatalogView extends SkillCatalogView {}
}

export type { CatalogFor, CatalogView } from "../../kernel/types.js";
