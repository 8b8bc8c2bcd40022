import { basename } from "node:path";
import { tmpdir } from "node:os";
import { errorMessage, UserError } from "../kernel/errors.js";
import type { AgentRow, Scope } from "./agents.js";
import { refuseStaged } from "./checks.js";
import { commitSkill, type SourceFields } from "./commit.js";
import type { OfferedSkill, OpenedSource } from "./fetch.js";
import { lockFolder, lockPath, portableFolder, readLock } from "./lock-file.js";
import type { InstallMode } from "./place.js";
import { refuseLinkedFolders, storeFolder } from "./place.js";
import type { SourceOpener } from "./report.js";
import type { ResolvedRef } from "./resolve-git.js";
import { signerOf } from "./signer.js";
import { sourceType, type SourceSpec } from "./source-spec.js";
import { escapeForDisplay } from "../skills/display-text.js";
import { installFolderName } from "../skills/skill-md/folder-name.js";

export interface AddRequest {
  readonly spec: SourceSpec;
  /** Skill names (or folder names) to add; all of the source's when empty. */
  readonly wanted: readonly string[];
  readonly agents: readonly AgentRow[];
  readonly mode: InstallMode;
  readonly scope: Scope;
  readonly force: boolean;
  readonly strict: boolean;
  readonly dryRun: boolean;
  /** Add a skill the audit finds high-severity problems in (refused otherwise). */
  readonly allowRisky?: boolean;
  /** Where a git source's ref points (resolved before opening it). */
  readonly resolved?: ResolvedRef;
}

/** One skill added (or, on a dry run, that would be). */
export interface AddedSkill extends SourceFields {
  readonly folder: string;
  readonly agents: readonly string[];
  readonly mode: InstallMode;
  readonly files: readonly string[];
  readonly warnings: readonly string[];
  /** Agent folders that got a copy because a link could not be made. */
  readonly copies: readonly string[];
  readonly dry_run: boolean;
}

export interface AddOutcome {
  readonly added: AddedSkill[];
  /** One message per skill that failed; the others were added. */
  readonly failures: string[];
  /** What the user should know about what was recorded (a path the lock cannot make portable). */
  readonly notes: string[];
}

/**
 * Adds skills of a source: each is copied through the install's checks into a staging folder,
 * passed to refuseStaged (the one place a skill is refused before anything is written), then
 * placed for the agents and recorded in the lock. A failure of one skill leaves the others.
 */
export async function addSkills(request: AddRequest, open: SourceOpener): Promise<AddOutcome> {
  // A lock that cannot be read stops the add before anything is fetched, and is said once.
  await readLock(lockPath(request.scope));
  await refuseLinkedFolders(request.agents, request.scope);
  const source = await open(request.spec, request.resolved?.commit);
  const outcome: AddOutcome = { added: [], failures: [], notes: [] };
  const where = recordedSource(request.spec, request.scope);
  if (where.note) outcome.notes.push(where.note);
  try {
    for (const offered of choose(source, request.wanted, request.spec.written)) {
      try {
        outcome.added.push(await addOne(source, offered, request, where));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        outcome.failures.push(errorMessage(error).replace(/\s*\n\s*/g, " "));
      }
    }
  } finally {
    await source.close();
  }
  return outcome;
}

/** How the lock names a source: a local folder relative to the lock where it can be, else by its absolute path with a note. */
function recordedSource(spec: SourceSpec, scope: Scope): { source: string; url?: string; note?: string } {
  if (spec.kind === "git") return { source: spec.written, url: spec.repository.url };
  if (spec.kind === "catalog") return { source: spec.written, url: spec.url };
  if (spec.kind === "archive" && /^https?:\/\//i.test(spec.location))
    return { source: spec.written, url: spec.location };
  const path = spec.kind === "archive" ? spec.location : spec.folder;
  const portable = scope.global ? undefined : portableFolder(path, lockFolder(scope));
  if (portable !== undefined) return { source: portable };
  const what = spec.kind === "archive" ? "file" : "folder";
  const note = scope.global
    ? undefined
    : `${path} is outside the project and its parent folder, so ${lockPath(scope)} records its absolute path: other clones need the ${what} at that path too`;
  return { source: path, url: path, note };
}

async function addOne(
  source: OpenedSource,
  offered: OfferedSkill,
  request: AddRequest,
  where: { source: string; url?: string },
): Promise<AddedSkill> {
  const { spec, resolved } = request;
  const staged = await source.stage(
    offered,
    request.dryRun ? tmpdir() : storeFolder(request.scope),
    request.strict,
    request.allowRisky ?? false,
  );
  try {
    const refused = await refuseStaged(staged);
    if (refused) throw new UserError(`refusing to add "${offered.name}": ${refused}`, 1);
    const folder = basename(staged.folder);
    const fields: SourceFields = {
      source: where.source,
      sourceType: sourceType(spec),
      url: where.url,
      ref: spec.kind === "git" ? spec.repository.ref : undefined,
      pinned: resolved?.pinned ?? false,
      commit: resolved?.commit,
      version: offered.version,
      digest: offered.skill.artifact?.digest,
      indexUrl: offered.skill.artifact?.indexUrl,
      path: offered.path,
      name: offered.name === folder ? undefined : offered.name,
      signer: signerOf(staged.signature),
    };
    const committed = request.dryRun
      ? { agents: request.agents.map((agent) => agent.id), copies: [] }
      : await commitSkill(staged, {
          folder,
          agents: request.agents,
          mode: request.mode,
          scope: request.scope,
          force: request.force,
          addAgents: true,
          source: fields,
        });
    return {
      ...fields,
      folder,
      agents: committed.agents,
      mode: request.mode,
      files: Object.keys(staged.digest.files).sort(),
      warnings: staged.warnings,
      copies: committed.copies,
      dry_run: request.dryRun,
    };
  } finally {
    await staged.discard();
  }
}

/** The skills asked for (by name or by folder name), or all of them; an unknown one is an error naming what there is. */
function choose(source: OpenedSource, wanted: readonly string[], written: string): OfferedSkill[] {
  // A skill the source refused is named with the reason, not as missing.
  const refused = (name: string) => {
    const why = source.skipped.get(name);
    return why === undefined ? undefined : new UserError(`refusing to add "${name}" from ${written}: ${why}`, 1);
  };
  if (source.skills.length === 0)
    throw (wanted.length === 1 ? refused(wanted[0]!) : undefined) ?? new UserError(`${written} has no skills`, 1);
  if (wanted.length === 0) return refuseSameFolder([...source.skills], written);
  const has = source.skills.map((skill) => skill.name).join(", ");
  const chosen = wanted.flatMap((name) => {
    const named = source.skills.filter((skill) => skill.name === name);
    const found = named.length > 0 ? named : source.skills.filter((skill) => basename(skill.path) === name);
    if (found.length === 0)
      throw refused(name) ?? new UserError(`${written} has no skill named "${name}"; it has: ${has}`, 1);
    return found;
  });
  return refuseSameFolder(chosen, written);
}

/**
 * Two skills of one name (an archive holding `a/pdf` and `b/pdf`) would be installed into one
 * folder, the second over the first: refused before anything is staged, naming both.
 */
function refuseSameFolder(chosen: OfferedSkill[], written: string): OfferedSkill[] {
  const byFolder = new Map<string, OfferedSkill[]>();
  for (const offered of chosen) {
    const folder = installFolderName(offered.name, offered.path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), offered]);
  }
  for (const [folder, same] of byFolder) {
    if (same.length < 2) continue;
    const where = same.map((offered) => `"${escapeForDisplay(offered.path || ".")}"`).join(", ");
    throw new UserError(
      `refusing to add from ${written}: ${same.length} of its skills would be installed as "${escapeForDisplay(folder)}" (at ${where}), one over the other; nothing is added`,
      1,
    );
  }
  return chosen;
}
