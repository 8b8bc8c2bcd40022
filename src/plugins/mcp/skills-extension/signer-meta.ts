import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { catalogReader } from "../../../skills/files/skill-reader.js";
import { SIGNATURE_FILE } from "../../../skills/signing/manifest.js";
import { signatureStatus } from "../../../skills/signing/status.js";
import type { SkillFileListing } from "../../../skills/types.js";

/**
 * The entry's `_meta` key for a verified signer. SEP-2640 leaves `_meta` to implementations; MCP
 * reserves `io.modelcontextprotocol`/`mcp` prefixes, so this is skills-kernel's own reverse-DNS name.
 */
export const SIGNER_META_KEY = "dev.skills-kernel/signer";

export interface SignerMeta {
  /** The signing key's type and SHA-256 fingerprint, as ssh-keygen prints them. */
  readonly key: string;
  /** The allowed signer's principal the signature verified for. */
  readonly principal: string;
}

/** Verdicts remembered: each costs three ssh-keygen runs, and a listing asks for every skill. */
const MAX_REMEMBERED = 10_000;

/**
 * Who signed a skill, when its SKILL.sig verifies against the allowed signers; remembered per
 * version of its files and of the allowed signers file, so a listing does not run ssh-keygen again.
 */
export class SignerCheck {
  readonly #verdicts = new Map<string, SignerMeta | null>();

  constructor(
    private readonly catalog: CatalogView,
    private readonly allowedSigners: string,
  ) {}

  async signer(
    skill: CatalogSkill,
    listing: SkillFileListing,
    documentDigest: string,
    signal: AbortSignal,
  ): Promise<SignerMeta | undefined> {
    if (!listing.files.some((file) => file.path === SIGNATURE_FILE)) return undefined;
    const signers = await stat(this.allowedSigners).then(
      (s) => s.mtimeMs,
      () => -1,
    );
    const key = versionKey([
      this.allowedSigners,
      signers,
      skill.qualifiedId,
      documentDigest,
      listing.files.map((file) => [file.path, file.size, file.mtimeMs ?? null]),
    ]);
    // A source that cannot tell versions apart (no mtimes) is verified every time.
    const cacheable = listing.files.every((file) => file.mtimeMs !== undefined);
    const known = cacheable ? this.#verdicts.get(key) : undefined;
    if (known !== undefined) return known ?? undefined;
    const status = await signatureStatus(catalogReader(this.catalog, skill), true, this.allowedSigners, signal);
    const verdict =
      status.verified && status.key && status.signer ? { key: status.key, principal: status.signer } : null;
    if (cacheable) {
      this.#verdicts.set(key, verdict);
      if (this.#verdicts.size > MAX_REMEMBERED) this.#verdicts.delete(this.#verdicts.keys().next().value!);
    }
    return verdict ?? undefined;
  }
}

function versionKey(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url");
}
