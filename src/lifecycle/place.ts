import { randomBytes } from "node:crypto";
import { cp, lstat, mkdir, realpath, rename, rm, symlink, unlink } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { errorMessage, UserError } from "../kernel/errors.js";
import { stagingName } from "../skills/files/install-staging.js";
import { agentFolder, SHARED_FOLDER, type AgentRow, type Scope } from "./agents.js";
import { linkOnTheWay } from "../skills/files/linked-folders.js";
import { SKILL_FILES } from "../skills/files/folder-rules.js";

export type InstallMode = "link" | "copy";

/** The folder holding the one stored copy of each linked skill: the shared `.agents/skills`. */
export function storeFolder(scope: Scope): string {
  return join(scope.global ? scope.home : scope.root, SHARED_FOLDER);
}

/**
 * Refuses, before anything is written or deleted, the shared store and agent folders with a
 * symbolic link on the way down from the project (or, globally, the home folder): the same rule
 * as install_skill's (linkOnTheWay). One link is taken: an agent folder that is itself a link to
 * the shared store (`.claude/skills -> ../.agents/skills`), which these rules keep.
 */
export async function refuseLinkedFolders(agents: readonly AgentRow[], scope: Scope): Promise<void> {
  const base = scope.global ? scope.home : scope.root;
  const store = storeFolder(scope);
  const storeLink = await linkOnTheWay(store, base);
  if (storeLink) throw linkedFolderError(storeLink.path, storeLink.problem);
  for (const folder of new Set(agents.map((agent) => agentFolder(agent, scope)))) {
    const linked = await linkOnTheWay(folder, base);
    if (!linked) continue;
    if (linked.path === folder && (await samePlace(join(folder, "x"), join(store, "x")))) continue;
    throw linkedFolderError(linked.path, linked.problem);
  }
}

function linkedFolderError(path: string, problem: string): UserError {
  const why =
    problem === "is a symbolic link"
      ? "is a symbolic link, and skills are never written or deleted through one (it could lead anywhere)"
      : problem;
  return new UserError(`refusing to change skills under ${path}: it ${why}`, 1);
}

/** Where a skill is for one agent. */
export function agentSkillPath(agent: AgentRow, scope: Scope, folder: string): string {
  return join(agentFolder(agent, scope), folder);
}

/**
 * The folders a skill is in: each agent's, and the shared store that holds the one copy linked
 * (link mode); an npx skills entry records no mode, and keeps its copy there too.
 */
export function skillFolders(agents: readonly AgentRow[], stored: boolean, scope: Scope): string[] {
  return [...new Set([...(stored ? [storeFolder(scope)] : []), ...agents.map((agent) => agentFolder(agent, scope))])];
}

/** Every path a placement writes: the stored copy (link mode) and each agent's entry. */
export function placementPaths(agents: readonly AgentRow[], scope: Scope, folder: string, mode: InstallMode): string[] {
  const paths = agents.map((agent) => agentSkillPath(agent, scope, folder));
  if (mode === "link") paths.unshift(join(storeFolder(scope), folder));
  return [...new Set(paths)];
}

/**
 * Moves a staged skill to where the agents read it. Link mode: the one copy goes into the shared
 * folder and every other agent's folder gets a relative link to it (a copy where a link cannot be
 * made, as on Windows without the right to make links). Copy mode: each agent gets its own copy.
 * Whatever was at those paths is replaced (the caller decided it may be). Returns the paths that
 * got a copy instead of a link.
 */
export async function placeSkill(
  staged: string,
  agents: readonly AgentRow[],
  scope: Scope,
  folder: string,
  mode: InstallMode,
): Promise<string[]> {
  const copies: string[] = [];
  const targets = [...new Set(agents.map((agent) => agentSkillPath(agent, scope, folder)))];
  if (mode === "link") {
    const stored = join(storeFolder(scope), folder);
    await replaceWith(staged, stored, async (temp) => rename(staged, temp));
    for (const target of targets) {
      await mkdir(dirname(target), { recursive: true });
      // `.claude/skills -> .agents/skills` (some users link them): the target is the stored copy itself.
      if (await samePlace(target, stored)) continue;
      await removeEntry(target);
      try {
        await symlink(relative(dirname(target), stored), target, process.platform === "win32" ? "junction" : "dir");
      } catch {
        await replaceWith(stored, target, (temp) => cp(stored, temp, { recursive: true }));
        copies.push(target);
      }
    }
    return copies;
  }
  for (const target of targets) await replaceWith(staged, target, (temp) => cp(staged, temp, { recursive: true }));
  await rm(staged, { recursive: true, force: true });
  return copies;
}

/** Fills a temporary folder beside `target` with `fill`, then swaps it in for whatever is at `target`. */
async function replaceWith(source: string, target: string, fill: (temp: string) => Promise<void>): Promise<void> {
  const parent = dirname(target);
  const name = target.slice(parent.length + 1);
  const temp = join(parent, stagingName("installing", name, randomBytes(6).toString("hex")));
  try {
    await mkdir(parent, { recursive: true });
    await fill(temp);
    await removeEntry(target);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw new UserError(`cannot install into ${target}: ${errorMessage(error)} (from ${source})`, 1);
  }
}

/** Whether two skill paths are one folder, through links in their parents (`~/.claude/skills -> ~/.agents/skills`). */
export async function samePlace(a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const real = (path: string) =>
    realpath(dirname(path)).then(
      (parent) => join(parent, basename(path)),
      () => path,
    );
  return (await real(a)) === (await real(b));
}

/**
 * Removes a skill's entry: a link is unlinked (never followed), an installed skill's folder
 * removed. Anything else (a file, a folder without a SKILL.md) is no skill, and is left alone.
 */
export async function removeEntry(path: string): Promise<boolean> {
  const kind = await entryKind(path);
  if (kind === "none") return false;
  if (kind === "link") await unlink(path);
  else if (kind === "skill") await rm(path, { recursive: true, force: true });
  else throw new UserError(notASkill(path, kind), 1);
  return true;
}

/** Why an entry that is not an installed skill is left alone. */
export function notASkill(path: string, kind: "file" | "folder"): string {
  return kind === "file"
    ? `${path} is a file, not an installed skill; it is left as it is`
    : `${path} holds no SKILL.md, so it is not an installed skill; it is left as it is`;
}

/** What is at a path a placement would write: nothing, a link, an installed skill's folder, another folder, or a file. */
export async function entryKind(path: string): Promise<"none" | "link" | "skill" | "folder" | "file"> {
  let stats;
  try {
    stats = await lstat(path);
  } catch {
    return "none";
  }
  if (stats.isSymbolicLink()) return "link";
  if (!stats.isDirectory()) return "file";
  for (const name of SKILL_FILES) {
    if (
      await lstat(join(path, name)).then(
        (file) => file.isFile(),
        () => false,
      )
    )
      return "skill";
  }
  return "folder";
}
