import { differingFiles } from "./digest.js";
import type { OpenedSource } from "./fetch.js";
import { lockFolder, lockPath, readLock, writeLock, type LockEntry } from "./lock-file.js";
import { withLockFile } from "./lock-guard.js";
import { isCatalogType, sourceFieldsOf } from "./commit.js";
import { resolveRef } from "./resolve-git.js";
import { inspectSkill } from "./state.js";
import { publishedDigest } from "./published.js";
import { readersOf, shownFolder, type Scope } from "./agents.js";
import { skillFolders } from "./place.js";
import type { SourceSpec } from "./source-spec.js";
import { errorMessage, UserError } from "../kernel/errors.js";
import { parseSource } from "./source-spec.js";
import { tmpdir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { tokenCredentials, type TokenEnv } from "../remote/git/host-tokens.js";

/**
 * One installed skill as `installed --json` and the list_installed_skills tool give it; the
 * fields the lock has too have its names (camelCase).
 */
export interface InstalledRow {
  readonly name: string;
  readonly state: "ok" | "modified" | "missing";
  readonly agents: string[];
  readonly source: string;
  readonly sourceType: string;
  readonly ref: string | null;
  readonly pinned: boolean;
  readonly commit: string | null;
  readonly version: string | null;
  readonly mode: string | null;
  readonly missingFor: string[];
  readonly differing: string[];
  readonly installedBy: "skills-kernel" | "npx skills";
  /** The folders holding it (relative to the project, or under ~ for the user) and every agent that reads each. */
  readonly folders: SkillFolder[];
}

export interface SkillFolder {
  readonly folder: string;
  readonly readBy: string[];
}

/** Every skill of the scope's lock, compared with what is on disk. */
export async function installedRows(scope: Scope): Promise<InstalledRow[]> {
  const lock = await readLock(lockPath(scope));
  const skills = await Promise.all(
    Object.entries(lock.skills).map(([folder, entry]) => inspectSkill(folder, entry, scope)),
  );
  return skills.map((skill) => ({
    name: skill.folder,
    state: skill.state,
    agents: skill.agents.map((agent) => agent.id),
    source: skill.entry.source,
    sourceType: skill.entry.sourceType,
    ref: skill.entry.ref ?? null,
    pinned: skill.entry.pinned ?? false,
    commit: skill.entry.commit ?? null,
    version: skill.entry.version ?? null,
    mode: skill.entry.mode ?? null,
    missingFor: [...skill.missingFor],
    differing: [...skill.differing],
    installedBy: skill.foreign ? "npx skills" : "skills-kernel",
    folders: skillFolders(skill.agents, skill.entry.mode !== "copy", scope).map((folder) => ({
      folder: shownFolder(folder, scope),
      readBy: readersOf(folder, scope).map((agent) => agent.id),
    })),
  }));
}

export type Freshness = "current" | "outdated" | "pinned" | "unknown";

/** One skill as `outdated --json` and the check_outdated_skills tool give it. */
export interface OutdatedRow {
  readonly name: string;
  readonly status: Freshness;
  readonly current: string | null;
  readonly latest: string | null;
  readonly note?: string;
}

const COMMIT = /^[0-9a-f]{40}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Opens a source (the CLI's shows a progress line). */
export type SourceOpener = (spec: SourceSpec, commit?: string) => Promise<OpenedSource>;

/**
 * The source a lock entry came from, as it was written; `lockDir` is the lock's folder, which a
 * local folder's relative path (ours and npx skills') starts from.
 */
export function entrySpec(name: string, entry: LockEntry, lockDir: string): SourceSpec {
  if (entry.sourceType === "local") {
    const folder = entry.sourceUrl && isAbsolute(entry.sourceUrl) ? entry.sourceUrl : resolve(lockDir, entry.source);
    return { kind: "local", written: entry.source, folder };
  }
  if (entry.sourceType === "archive")
    return { kind: "archive", written: entry.source, location: entry.sourceUrl ?? resolve(lockDir, entry.source) };
  if (isCatalogType(entry.sourceType) && entry.sourceUrl)
    return { kind: "catalog", written: entry.source, url: entry.sourceUrl };
  if (entry.sourceType === "git") return parseSource(entry.source, lockDir).spec;
  throw new UserError(
    `"${name}" was installed by another tool (source type ${entry.sourceType}); add it again to manage it here`,
    1,
  );
}

/** The lock entry's skill among a source's skills: by its path, else by name. */
export function findLocked(source: OpenedSource, name: string, entry: LockEntry) {
  const { path } = sourceFieldsOf(entry);
  const found =
    source.skills.find((skill) => path !== undefined && skill.path === path) ??
    source.skills.find((skill) => skill.name === (entry.name ?? name));
  if (!found) throw new UserError(`"${name}" is no longer in ${entry.source}${path ? ` at ${path}` : ""}`, 1);
  return found;
}

/**
 * Whether a locked skill's own files changed at its source: a branch's new commit, a discovery
 * index's new digest for the artifact, or a catalog's, archive's or folder's new content. A new commit that leaves the skill's files as they were is "current",
 * with `latest` the commit to record. `tokenEnv` names the tokens for private HTTPS hosts.
 */
export async function checkFreshness(
  name: string,
  entry: LockEntry,
  lockDir: string,
  open: SourceOpener,
  tokenEnv: TokenEnv = {},
): Promise<OutdatedRow> {
  const archive = entry.sourceType === "archive";
  const current = entry.commit ?? (archive ? entry.digest : undefined) ?? entry.version ?? null;
  if (entry.pinned)
    return { name, status: "pinned", current, latest: null, ...(entry.ref ? { note: `pinned to ${entry.ref}` } : {}) };
  try {
    if (entry.files === undefined)
      return {
        name,
        status: "unknown",
        current,
        latest: null,
        note: "installed by npx skills: add it here to track it",
      };
    const { digest } = sourceFieldsOf(entry);
    if (isCatalogType(entry.sourceType) && digest && entry.indexUrl) {
      // The index's digest says whether the artifact changed: an unchanged one is not downloaded.
      const latest = await publishedDigest(
        entry.indexUrl,
        entry.name ?? name,
        process.env.SKILLS_KERNEL_CATALOG_TOKEN || undefined,
      );
      return { name, status: latest === digest ? "current" : "outdated", current: digest, latest };
    }
    let commit: string | undefined;
    if (entry.sourceType === "git" && entry.sourceUrl) {
      commit = (await resolveRef(entry.sourceUrl, entry.ref, tokenCredentials(entry.sourceUrl, tokenEnv))).commit;
      if (commit === entry.commit) return { name, status: "current", current, latest: commit };
    }
    const source = await open(entrySpec(name, entry, lockDir), commit);
    const offered = findLocked(source, name, entry);
    const archiveDigest = archive ? offered.skill.artifact?.digest : undefined;
    // The same archive bytes hold the same files: nothing to copy out to compare.
    if (archiveDigest !== undefined && archiveDigest === entry.digest)
      return { name, status: "current", current, latest: archiveDigest };
    const staged = await source.stage(offered, tmpdir(), false, true);
    await staged.discard();
    const changed = differingFiles(entry.files, staged.digest.files).length > 0;
    const latest = commit ?? archiveDigest ?? staged.offered.version ?? (changed ? "changed" : current);
    return { name, status: changed ? "outdated" : "current", current, latest };
  } catch (error) {
    return { name, status: "unknown", current, latest: null, note: errorMessage(error) };
  }
}

/**
 * An opener that opens each source (at each commit) once, for a run over many skills of one
 * repository; `closeAll` closes what it opened.
 */
export function sharedOpener(open: SourceOpener): { open: SourceOpener; closeAll(): Promise<void> } {
  const opened = new Map<string, Promise<OpenedSource>>();
  return {
    open: (spec, commit) => {
      const key = JSON.stringify([spec, commit]);
      let source = opened.get(key);
      if (!source) {
        source = open(spec, commit);
        opened.set(key, source);
      }
      return source;
    },
    async closeAll() {
      const all = await Promise.allSettled(opened.values());
      for (const result of all) if (result.status === "fulfilled") await result.value.close();
    },
  };
}

/**
 * Records the commit each current git skill's branch moved to (or the digest an archive moved
 * to), where the skill's own files did not change, so the lock names what is installed without
 * rewriting a file.
 */
export async function recordMovedCommits(scope: Scope, rows: readonly OutdatedRow[]): Promise<void> {
  const moved = rows.filter(
    (row) =>
      row.status === "current" &&
      row.latest !== null &&
      row.latest !== row.current &&
      (COMMIT.test(row.latest) || DIGEST.test(row.latest)),
  );
  if (moved.length === 0) return;
  const file = lockPath(scope);
  await withLockFile(file, async () => {
    const lock = await readLock(file);
    const skills = { ...lock.skills };
    for (const row of moved) {
      const entry = skills[row.name];
      if (entry?.commit === row.current && COMMIT.test(row.latest!))
        skills[row.name] = { ...entry, commit: row.latest! };
      else if (entry?.sourceType === "archive" && entry.digest === row.current && DIGEST.test(row.latest!))
        skills[row.name] = { ...entry, digest: row.latest! };
    }
    await writeLock(file, { ...lock, skills });
  });
}

/** Every skill of the scope's lock and whether its source moved on. */
export async function outdatedRows(scope: Scope, open: SourceOpener, tokenEnv: TokenEnv = {}): Promise<OutdatedRow[]> {
  const lock = await readLock(lockPath(scope));
  const shared = sharedOpener(open);
  const rows: OutdatedRow[] = [];
  try {
    for (const [name, entry] of Object.entries(lock.skills))
      rows.push(await checkFreshness(name, entry, lockFolder(scope), shared.open, tokenEnv));
  } finally {
    await shared.closeAll();
  }
  await recordMovedCommits(scope, rows);
  return rows;
}
