import { z } from "zod";
import type { Identity } from "../../kernel/types.js";

export type { Identity };

/**
 * Who may see a source's skills: a caller holding any listed scope, or any listed value of a
 * listed claim. A source without one is seen by every caller.
 */
export const visibilitySchema = z
  .strictObject({
    scopes: z.array(z.string().min(1)).optional(),
    claims: z.record(z.string().min(1), z.array(z.string().min(1))).optional(),
  })
  .refine((v) => (v.scopes?.length ?? 0) + Object.values(v.claims ?? {}).flat().length > 0, {
    message: "visibleTo must name at least one scope or claim value (a source nobody may see is better left out)",
  });

/** A source's `visibleTo`: the scopes and claim values, any one of which lets a caller see it (see visibilitySchema). */
export type Visibility = z.output<typeof visibilitySchema>;

/** Who may see one source's skills, contributed by the plugin that contributes the source. */
export interface SourceVisibility {
  /** The source's name. */
  readonly name: string;
  /** Who may see it: a caller with any scope or claim value listed here. */
  readonly visibleTo: Visibility;
}

/** The identity a config chooses (stdio, tests of a team's view). */
export const identitySchema = z.strictObject({
  subject: z.string().min(1),
  scopes: z.array(z.string().min(1)).default([]),
  claims: z.record(z.string().min(1), z.union([z.string(), z.array(z.string())])).default({}),
});

/**
 * The one rule every tool, resource, prompt, completion and route applies, through the catalog's
 * view (`callerView`): nothing restricted is seen without an identity.
 */
export function canSee(visibleTo: Visibility | undefined, identity: Identity | undefined): boolean {
  if (visibleTo === undefined) return true;
  if (identity === undefined) return false;
  if (visibleTo.scopes?.some((scope) => identity.scopes.includes(scope))) return true;
  for (const [claim, wanted] of Object.entries(visibleTo.claims ?? {})) {
    if (!Object.hasOwn(identity.claims, claim)) continue;
    const held = identity.claims[claim];
    const values = typeof held === "string" ? [held] : (held ?? []);
    if (wanted.some((value) => values.includes(value))) return true;
  }
  return false;
}
