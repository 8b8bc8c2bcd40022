import type { ServeCheck } from "../audit/blocking-source.js";
import { skillManifest, SIGNATURE_FILE } from "./manifest.js";
import { verifyManifest } from "./ssh-keygen.js";

/** Bytes of a signature file read: an SSH signature is well under a kilobyte. */
const MAX_SIGNATURE_BYTES = 16 * 1024;

/** Serve only skills whose SKILL.sig verifies against `allowedSigners`. */
export function requireSignature(allowedSigners: string): ServeCheck {
  return async (_skill, reader, signal) => {
    const signature = await reader.readFile(SIGNATURE_FILE, MAX_SIGNATURE_BYTES, signal).catch(() => undefined);
    if (!signature) return `not served: it is not signed (no ${SIGNATURE_FILE}) and signatures are required`;
    const verdict = await verifyManifest(
      await skillManifest(reader, signal),
      new TextDecoder().decode(signature.bytes),
      allowedSigners,
    );
    return verdict.ok ? undefined : `not served: ${verdict.reason}`;
  };
}
