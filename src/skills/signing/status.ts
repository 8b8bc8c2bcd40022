import { errorMessage } from "../../kernel/errors.js";
import type { SkillReader } from "../files/skill-reader.js";
import { skillManifest, SIGNATURE_FILE } from "./manifest.js";
import { verifyManifest } from "./ssh-keygen.js";

/** Whether a skill is signed and by whom: what read_skill, audit_skill and manifests report. */
export interface SignatureStatus {
  readonly signed: boolean;
  /** True when the signature verifies against the allowed signers; absent when none were given. */
  readonly verified?: boolean;
  /** The allowed signer's identity (the principal in the allowed signers file). */
  readonly signer?: string;
  /** The signing key's type and SHA-256 fingerprint, as ssh-keygen prints it. */
  readonly key?: string;
  /** Why it does not verify. */
  readonly reason?: string;
}

/**
 * The signature status of a skill whose files hold SKILL.sig (`hasSignatureFile`, from its
 * listing, spares a read for the unsigned majority). Without allowed signers, the key is named
 * but nothing is verified.
 */
export async function signatureStatus(
  reader: SkillReader,
  hasSignatureFile: boolean,
  allowedSigners: string | undefined,
  signal?: AbortSignal,
): Promise<SignatureStatus> {
  if (!hasSignatureFile) return { signed: false };
  try {
    const signature = new TextDecoder().decode((await reader.readFile(SIGNATURE_FILE, 16 * 1024, signal)).bytes);
    const manifest = await skillManifest(reader, signal);
    if (allowedSigners === undefined) {
      const verdict = await verifyManifest(manifest, signature, "/dev/null");
      return {
        signed: true,
        ...(verdict.key && { key: verdict.key }),
        ...(!verdict.ok && verdict.reason.startsWith("the signature does not match") && { reason: verdict.reason }),
      };
    }
    const verdict = await verifyManifest(manifest, signature, allowedSigners);
    return verdict.ok
      ? { signed: true, verified: true, signer: verdict.signer, key: verdict.key }
      : { signed: true, verified: false, reason: verdict.reason, ...(verdict.key && { key: verdict.key }) };
  } catch (error) {
    return { signed: true, verified: false, reason: errorMessage(error) };
  }
}

/** The status in one sentence. */
export function describeSignature(status: SignatureStatus): string {
  if (!status.signed) return "Not signed.";
  if (status.verified) return `Signed by ${status.signer} (${status.key}), verified against the allowed signers.`;
  if (status.verified === false) return `Signed, but the signature does not verify: ${status.reason}.`;
  return status.reason
    ? `Signed, but ${status.reason}.`
    : `Signed with key ${status.key ?? "(unknown)"}; no allowed signers are configured to check it against.`;
}
