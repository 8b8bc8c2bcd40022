import { createHash } from "node:crypto";
import type { Identity } from "../../../kernel/types.js";
import type { SourceVisibility } from "../../../skills/catalog/visibility.js";

/** The group of callers in none of the groups visibility names, and of callers with no identity. */
export const ANONYMOUS = "anonymous";
/** Groups one caller is counted in at most: each is one more write per use. */
export const MAX_GROUPS_PER_CALLER = 8;

/**
 * A caller's groups, as per-team visibility knows them: each scope (`scope:<scope>`) and claim
 * value (`<claim>:<value>`, as `groups:platform`) that some source's `visibleTo` names and the
 * caller holds; `anonymous` when none. Only names from the config, so figures per group are
 * bounded by it whatever callers send.
 */
export function groupsOf(visibilities: readonly SourceVisibility[], identity: Identity | undefined): string[] {
  if (identity === undefined) return [ANONYMOUS];
  const held = new Set<string>();
  for (const { visibleTo } of visibilities) {
    for (const scope of visibleTo.scopes ?? []) if (identity.scopes.includes(scope)) held.add(`scope:${scope}`);
    for (const [claim, wanted] of Object.entries(visibleTo.claims ?? {})) {
      if (!Object.hasOwn(identity.claims, claim)) continue;
      const value = identity.claims[claim];
      const values = typeof value === "string" ? [value] : (value ?? []);
      for (const one of wanted) if (values.includes(one)) held.add(`${claim}:${one}`);
    }
  }
  if (held.size === 0) return [ANONYMOUS];
  return [...held].sort().slice(0, MAX_GROUPS_PER_CALLER);
}

/** Who asked a miss, for counting distinct callers: a hash of the OAuth subject; one for every caller with none. */
export function callerId(identity: Identity | undefined): string {
  if (identity === undefined) return ANONYMOUS;
  return createHash("sha256").update(`subject\0${identity.subject}`).digest("hex").slice(0, 16);
}
