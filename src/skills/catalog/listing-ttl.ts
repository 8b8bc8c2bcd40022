import type { CatalogSource } from "../types.js";

/** For sources that announce their changes: a client that does not listen sees one within a minute. */
const ANNOUNCED_TTL_MS = 60_000;
/** When no source changes until a restart: an hour, so a restarted server is re-listed soon enough. */
const STATIC_TTL_MS = 60 * 60_000;

/**
 * How long a client may reuse what the server lists (its `ttlMs`, TOKENS.ListingTtl): the
 * shortest any source allows. A change a source announces reaches listening clients at once
 * (list_changed), so those allow ANNOUNCED_TTL_MS for clients that do not listen; sources that
 * never change until a restart allow STATIC_TTL_MS.
 */
export function listingTtlMs(sources: readonly Pick<CatalogSource, "freshness">[]): number {
  let ttl = STATIC_TTL_MS;
  for (const { freshness } of sources) {
    if (freshness === "announced") ttl = Math.min(ttl, ANNOUNCED_TTL_MS);
    else if (freshness !== undefined) ttl = Math.min(ttl, Math.max(0, Math.floor(freshness.refreshMs)));
  }
  return ttl;
}
