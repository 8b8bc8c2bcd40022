import type { SkillCatalog } from "../../skills/catalog.js";
import type { Readiness } from "./app.js";

/**
 * /readyz for a skills server: ready once the catalog has loaded its sources (a load balancer
 * sends it nothing before). Without a catalog (a kernel serving only tools) it is ready at once.
 */
export function skillsReadiness(catalog: SkillCatalog | undefined): () => Readiness {
  if (!catalog) return () => ({ ready: true, checks: {} });
  let loaded = false;
  void catalog.ready().then(() => (loaded = true));
  return () => ({ ready: loaded, checks: { catalog: loaded ? "loaded" : "loading" } });
}
