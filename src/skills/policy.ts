import type { CatalogSource } from "./types.js";

/*
 * What a server may serve and install, by source: the audit's verdict and, when asked for, a
 * signature by an allowed signer. The skill-policy plugin provides one; the catalog boots it
 * with its defaults when a config does not list it.
 */

/** off: never audited at load; warn: served, findings reported where skills are read and installed; block: a skill with a high finding is not served. */
export type AuditMode = "off" | "warn" | "block";

export const AUDIT_MODES: readonly AuditMode[] = ["off", "warn", "block"];

/**
 * What each source's skills must pass to be served and installed (TOKENS.SkillPolicy): the audit
 * mode and the signers required. The skill-policy plugin provides it; a tool asks it per source.
 */
export interface SkillPolicy {
  /** The audit mode for a source. */
  auditMode(source: CatalogSource): AuditMode;
  /**
   * The allowed signers file (ssh-keygen's format) a source's skills must be signed by, or
   * undefined when the source's skills need no signature.
   */
  requiredSigners(source: CatalogSource): string | undefined;
  /** The allowed signers file that read_skill and installs check signatures against, if any. */
  readonly allowedSigners?: string;
}

/** A source with local folders is the user's own: warn. Anything fetched is blocked on a high finding. */
export function defaultAuditMode(source: CatalogSource): AuditMode {
  return (source.capabilities?.localFolders?.length ?? 0) > 0 ? "warn" : "block";
}
