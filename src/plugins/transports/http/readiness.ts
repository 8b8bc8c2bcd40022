import type { CacheMonitor } from "../../../kernel/cache.js";
import type { WholeCatalog } from "../../../skills/catalog/catalog.js";
import type { Readiness } from "./app.js";

/**
 * /readyz for a skills server: ready once the catalog has loaded its sources (a load balancer
 * sends it nothing before); "degraded" while a source failed or serves its last good load, which
 * is still worth serving. Source names stay out: the health checks need no token. Without a
 * catalog (a kernel serving only tools) it is ready at once.
 */
export function skillsReadiness(catalog: WholeCatalog | undefined, cache?: CacheMonitor): () => Readiness {
  let loaded = catalog === undefined;
  void catalog?.ready().then(() => (loaded = true));
  return () => {
    // The cache's state is reported, never required: with Redis degraded or reconnecting a replica
    // still answers from its sources, so a load balancer should keep sending it requests.
    const cacheCheck: Record<string, string> = cache ? { cache: cache.state } : {};
    if (!catalog) return { ready: true, checks: cacheCheck };
    if (!loaded) return { ready: false, checks: { catalog: "loading", ...cacheCheck } };
    const troubled = catalog.status().some((source) => source.state === "failed" || source.state === "stale");
    return { ready: true, checks: { catalog: troubled ? "degraded" : "loaded", ...cacheCheck } };
  };
}
