import { differingFiles, type FileDigests } from "./digest.js";
import type { StagedSkill } from "./fetch.js";
import { signerChange, type LockedSigner } from "./signer.js";

/** What a staged skill must match: the lock's digests (restore), the locked signer (update, restore). */
export interface StagedExpectations {
  readonly files?: FileDigests;
  /** The lock's folder digest (npx skills' `computedHash`): restore checks it beside each file's. */
  readonly computedHash?: string;
  readonly signer?: LockedSigner;
  /** Take a skill whose signer changed, or whose signature is gone. */
  readonly acceptSigner?: boolean;
}

/**
 * The one place a staged skill (copied out of its source, not yet where any agent reads it) may be
 * refused: every add, update and restore passes here before anything is written. Returns why it
 * is refused, or undefined; async, so a check may read the staged files.
 */
export async function refuseStaged(
  staged: StagedSkill,
  expected: StagedExpectations = {},
): Promise<string | undefined> {
  if (expected.files) {
    const differing = differingFiles(expected.files, staged.digest.files);
    if (differing.length > 0) {
      return `its content does not match the lock's digests (${differing.slice(0, 5).join(", ")}${differing.length > 5 ? ", …" : ""}); nothing was written`;
    }
  }
  if (expected.computedHash !== undefined && expected.computedHash !== staged.digest.computedHash) {
    return "its content does not match the lock's folder digest (computedHash); nothing was written";
  }
  if (expected.signer && !expected.acceptSigner) {
    const changed = signerChange(expected.signer, staged.signature);
    if (changed) return `${changed}; nothing was written (--accept-signer takes it as it is)`;
  }
  return undefined;
}
