import type { SignatureStatus } from "../skills/signing/status.js";

/**
 * Who signed an installed skill, as the lock records it: the key's type and SHA-256 fingerprint
 * as ssh-keygen prints them (`ED25519 SHA256:…`), and the allowed signer's principal when the
 * signature was checked against an allowed signers file. Later fetches must be signed by the same key.
 */
export interface LockedSigner {
  readonly key: string;
  readonly principal?: string;
}

/** The signer to record for a skill, when its SKILL.sig is a valid signature of its files (and by an allowed signer, when some were given). */
export function signerOf(status: SignatureStatus): LockedSigner | undefined {
  if (!status.signed || status.key === undefined || status.verified === false || status.reason !== undefined)
    return undefined;
  return { key: status.key, ...(status.signer !== undefined && { principal: status.signer }) };
}

/** Why a signed skill fetched again may not replace the locked one: its signer changed, or its signature is gone or broken. */
export function signerChange(locked: LockedSigner, status: SignatureStatus): string | undefined {
  const now = signerOf(status);
  if (!now) {
    const why = status.signed
      ? `its signature no longer verifies (${status.reason ?? "no key"})`
      : "it is no longer signed (no SKILL.sig)";
    return `it was signed by ${locked.key} and ${why}`;
  }
  if (now.key !== locked.key) return `its signer changed from ${locked.key} to ${now.key}`;
  return undefined;
}
