import { UserError } from "../kernel/errors.js";
import type { AgentRow, Scope } from "./agents.js";
import type { StagedSkill } from "./fetch.js";
import { readLock, writeLock, lockPath, type LockEntry } from "./lock-file.js";
import { withLockFile } from "./lock-guard.js";
import { entryKind, notASkill, placementPaths, placeSkill, refuseLinkedFolders, type InstallMode } from "./place.js";
import type { LockedSigner } from "./signer.js";
import { entryAgents } from "./state.js";

/** Where a staged skill goes and what the lock says of it. */
export interface SkillPlan {
  readonly folder: string;
  readonly agents: readonly AgentRow[];
  readonly mode: InstallMode;
  readonly scope: Scope;
  /** Replace a folder the lock does not record. */
  readonly force: boolean;
  /** add: the agents the lock lists already keep the skill (it is added for more); update, restore: exactly `agents`. */
  readonly addAgents: boolean;
  /** The lock entry's fields about the source. */
  readonly source: SourceFields;
  /** restore: the lock already says all this, and is left untouched. */
  readonly leaveLock?: boolean;
}

/** The lock entry's fields that say where a skill came from. */
export interface SourceFields {
  readonly source: string;
  readonly sourceType: string;
  readonly url?: string;
  readonly ref?: string;
  readonly pinned?: boolean;
  readonly commit?: string;
  readonly version?: string;
  /** A discovery index's artifact: its digest and the index's url. */
  readonly digest?: string;
  readonly indexUrl?: string;
  readonly path?: string;
  readonly name?: string;
  readonly signer?: LockedSigner;
}

/**
 * The lock entry's fields for a source's skill, as npx skills reads them (docs/lifecycle.md#npx-skills):
 * `url` and `path` under its names; a discovery index's skill as its `well-known` entry, the
 * index's digest in its `wellKnownDigest`; and no `skillPath` where it could not use one (an
 * archive, another catalog, a `file://` repository whose URL does not end in `.git`, to which it
 * would append the skill's folder), so that its `check` passes over the skill instead of failing.
 * Such a skill is found again here by its name.
 */
export function lockFields(fields: SourceFields): Partial<LockEntry> & Pick<LockEntry, "source" | "sourceType"> {
  const { url, path, digest, ...rest } = fields;
  const wellKnown = isCatalogType(fields.sourceType) && fields.indexUrl !== undefined;
  const npxFindsPath =
    fields.sourceType === "local" || (fields.sourceType === "git" && !/^file:(?!.*\.git$)/i.test(url ?? ""));
  return {
    ...rest,
    sourceType: wellKnown ? "well-known" : fields.sourceType,
    sourceUrl: url,
    ...(wellKnown ? { wellKnownDigest: digest } : { digest }),
    skillPath: path === undefined || !npxFindsPath ? undefined : path === "" ? "SKILL.md" : `${path}/SKILL.md`,
  };
}

/** A catalog's `sourceType`: ours, or npx skills' for a site's discovery index. */
export function isCatalogType(sourceType: string): boolean {
  return sourceType === "catalog" || sourceType === "well-known";
}

/** The source fields of a lock entry (the inverse of lockFields). */
export function sourceFieldsOf(entry: LockEntry): SourceFields {
  const { sourceUrl, skillPath, source, sourceType, ref, pinned, commit, version, indexUrl, name, signer } = entry;
  const path =
    skillPath === undefined ? undefined : skillPath === "SKILL.md" ? "" : skillPath.replace(/\/SKILL\.md$/, "");
  const digest = entry.digest ?? entry.wellKnownDigest;
  return { source, sourceType, url: sourceUrl, ref, pinned, commit, version, digest, indexUrl, path, name, signer };
}

export interface Committed {
  readonly agents: readonly string[];
  /** Agent folders that got a copy because a link could not be made. */
  readonly copies: readonly string[];
}

/**
 * Moves a staged skill into the agents' folders and records it in the lock, holding the lock's
 * guard throughout, so a concurrent command never sees one without the other or loses an entry.
 * A folder the lock does not record is never replaced without `force`.
 */
export async function commitSkill(staged: StagedSkill, plan: SkillPlan): Promise<Committed> {
  const file = lockPath(plan.scope);
  return withLockFile(file, async () => {
    const lock = await readLock(file);
    const existing = lock.skills[plan.folder];
    // Another source's skill of the same name is not replaced by accident; npx skills' entries (no
    // per-file digests) spell URLs their own way, and adding the skill here takes them over.
    if (
      existing?.files !== undefined &&
      (existing.sourceUrl ?? existing.source) !== (plan.source.url ?? plan.source.source) &&
      !plan.force
    ) {
      throw new UserError(
        `${plan.folder} is installed from ${existing.source}; --force replaces it with ${plan.source.source}`,
        1,
      );
    }
    const previous = existing && plan.addAgents ? await entryAgents(existing, plan.scope, plan.folder) : [];
    const agents = [...new Map([...previous, ...plan.agents].map((agent) => [agent.id, agent])).values()];
    await refuseLinkedFolders(agents, plan.scope);
    for (const path of placementPaths(agents, plan.scope, plan.folder, plan.mode)) {
      const kind = await entryKind(path);
      // Never replaced, even with --force: what is there is not a skill this command installed.
      if (kind === "file" || kind === "folder") throw new UserError(`${notASkill(path, kind)} (remove it first)`, 1);
      if (kind !== "none" && !existing && !plan.force) {
        throw new UserError(`${path} exists and ${file} does not record it; --force replaces it`, 1);
      }
    }
    const copies = await placeSkill(staged.folder, agents, plan.scope, plan.folder, plan.mode);
    const entry: LockEntry = {
      ...lockFields(plan.source),
      agents: agents.map((agent) => agent.id),
      mode: plan.mode,
      computedHash: staged.digest.computedHash,
      files: staged.digest.files,
    };
    if (!plan.leaveLock) await writeLock(file, { ...lock, skills: { ...lock.skills, [plan.folder]: entry } });
    return { agents: entry.agents!, copies };
  });
}
