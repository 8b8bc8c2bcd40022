import { differingFiles } from "./digest.js";
import type { StagedSkill } from "./fetch.js";
import type { LockEntry } from "./lock-file.js";

/**
 * The one place a staged skill (copied out of its source, not yet where any agent reads it) may be
 * refused: every add, update and restore passes here before anything is written. Returns why it
 * is refused, or undefined; async, so a check may read the staged files. Today: restore's check
 * that the content is exactly what the lock records; per-skill policies (an audit) belong here too.
 */
export async function refuseStaged(staged: StagedSkill, locked?: LockEntry): Promise<string | undefined> {
  if (locked?.files) {
    const differing = differingFiles(locked.files, staged.digest.files);
    if (differing.length > 0) {
      return `its content does not match the lock's digests (${differing.slice(0, 5).join(", ")}${differing.length > 5 ? ", …" : ""}); nothing was written`;
    }
  }
  return undefined;
}
