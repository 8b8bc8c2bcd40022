import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { z } from "zod";
import { errorMessage, UserError } from "../kernel/errors.js";
import { checkRelativePath } from "../skills/files/skill-files.js";
import { escapeForDisplay } from "../skills/display-text.js";
import { agentById } from "./agents.js";
import { readRegularFile } from "../lib/regular-file.js";

/** The lock's file name: the one `npx skills` writes at a project's root, so both read each other's. */
export const LOCK_FILE = "skills-lock.json";

/** The newest format this build reads and writes (`npx skills` writes the same number). */
export const LOCK_VERSION = 1;

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * One skill of the lock. `source`, `sourceType`, `sourceUrl`, `ref`, `skillPath` and
 * `computedHash` are `npx skills`' own fields, with its meanings (skills 1.7's local lock), so
 * each tool reads, restores and updates the other's entries; the rest are skills-kernel's.
 */
const entrySchema = z
  .object({
    /** The source as the user wrote it; a local folder relative to the lock's folder where it can be (npx skills' portable form). */
    source: z.string().min(1),
    /** git, catalog, well-known (a site's discovery index), archive or local (npx skills: github, local, node_modules…). */
    sourceType: z.string().min(1),
    /** The resolved URL: a git remote or a catalog document; a local folder's absolute path only where it cannot be relative. */
    sourceUrl: z.string().min(1).optional(),
    /** The branch, tag or commit asked for; absent when none was. */
    ref: z.string().min(1).optional(),
    /** A tag or a commit was asked for: update leaves the skill where it is. */
    pinned: z.boolean().optional(),
    /** The commit installed (git sources). */
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .optional(),
    /** The version the catalog gave, when it gave one. */
    version: z.string().min(1).optional(),
    /** An archive's skill: the digest of the archive installed from (a discovery index's skill, in a lock written before `wellKnownDigest`). */
    digest: z.string().regex(DIGEST).optional(),
    /** A `well-known` entry's digest of its artifact, as the discovery index gave it (npx skills' field). */
    wellKnownDigest: z.string().regex(DIGEST).optional(),
    /** The discovery index that named the artifact (a site's source may have answered with either well-known index). */
    indexUrl: z.string().url().optional(),
    /** The skill's SKILL.md inside the source, POSIX separators (`skills/pdf/SKILL.md`; `SKILL.md` at the root). */
    skillPath: z.string().min(1).optional(),
    /** The skill's name when its folder is named otherwise. */
    name: z.string().min(1).optional(),
    agents: z.array(z.string()).optional(),
    mode: z.enum(["link", "copy"]).optional(),
    /** Who signed the skill (its SKILL.sig verified when installed): update and restore require the same key. */
    signer: z
      .strictObject({
        key: z.string().regex(/^[A-Z0-9-]+ SHA256:[A-Za-z0-9+/=]+$/),
        principal: z.string().min(1).optional(),
      })
      .optional(),
    /** SHA-256 of every installed file, as the Skills extension's manifest gives it. */
    files: z.record(z.string(), z.string().regex(DIGEST)).optional(),
    /** npx skills' digest of the whole folder, kept equal so that it sees the skill as current. */
    computedHash: z.string().min(1),
  })
  .catchall(z.unknown());

export type LockEntry = z.infer<typeof entrySchema>;

const lockSchema = z
  .object({ version: z.number().int().min(1), skills: z.record(z.string(), entrySchema) })
  .catchall(z.unknown());

export interface Lock {
  readonly version: number;
  /** By install folder name. */
  readonly skills: Record<string, LockEntry>;
}

/** Where the lock lives: a project's root, or the user's state folder for --global installs. */
export function lockPath(scope: { readonly global: boolean; readonly root: string }): string {
  if (!scope.global) return join(scope.root, LOCK_FILE);
  const state = process.env.XDG_STATE_HOME;
  // The XDG spec says a relative value is invalid and is to be ignored.
  return join(state?.startsWith("/") ? state : join(homedir(), ".local", "state"), "skills-kernel", LOCK_FILE);
}

/** The folder a lock's relative paths are relative to: the one holding it. */
export function lockFolder(scope: { readonly global: boolean; readonly root: string }): string {
  return dirname(lockPath(scope));
}

/**
 * A local source's folder as a project lock records it, the way npx skills writes it: relative to
 * the lock's folder (`./skills`, `../shared-skills`) when inside the project or beside it (inside
 * its parent), so the lock works in every clone; undefined when only an absolute path can name it.
 */
export function portableFolder(folder: string, lockDir: string): string | undefined {
  const path = relative(lockDir, folder);
  if (isAbsolute(path)) return undefined;
  const posix = path.split(sep).join("/");
  if (posix === "") return ".";
  if (posix.startsWith("../../") || posix === "../..") return undefined;
  return posix.startsWith("../") || posix === ".." ? posix : `./${posix}`;
}

/**
 * Reads the lock; a missing file is an empty lock. A file that cannot be read, is not a lock, or
 * is of a newer format is an error naming it: it is never reset, since it is the project's record.
 */
export async function readLock(file: string): Promise<Lock> {
  let text: string;
  try {
    text = await readRegularFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: LOCK_VERSION, skills: {} };
    throw new UserError(`cannot read ${file}: ${errorMessage(error)}`, 1);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      `${file} is not valid JSON (${errorMessage(error)}); fix it or restore it from version control`,
      1,
    );
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > LOCK_VERSION) {
    throw new UserError(
      `${file} has format version ${version}, newer than this skills-kernel reads (${LOCK_VERSION}); upgrade skills-kernel`,
      1,
    );
  }
  const parsed = lockSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(
      `${file} is not a skills lock: ${escapeForDisplay(issue.path.join(".")) || "the document"}: ${issue.message}`,
      1,
    );
  }
  for (const [name, entry] of Object.entries(parsed.data.skills)) checkEntry(file, name, entry);
  return { version: LOCK_VERSION, skills: parsed.data.skills };
}

/** What JSON Schema cannot say: names and paths that could step out of a folder, unknown agents. */
function checkEntry(file: string, name: string, entry: LockEntry): void {
  const bad = (why: string) => new UserError(`${file}: skill "${escapeForDisplay(name)}": ${why}`, 1);
  if (checkRelativePath(name) !== undefined || name.includes("/")) throw bad("the name is not a plain folder name");
  for (const path of Object.keys(entry.files ?? {})) {
    const problem = checkRelativePath(path);
    if (problem) throw bad(`file "${escapeForDisplay(path)}": ${problem}`);
  }
  for (const agent of entry.agents ?? []) {
    if (!agentById(agent)) throw bad(`unknown agent "${agent}"`);
  }
}

const ENTRY_KEYS = [
  "source",
  "sourceType",
  "sourceUrl",
  "ref",
  "pinned",
  "commit",
  "version",
  "digest",
  "wellKnownDigest",
  "indexUrl",
  "skillPath",
  "name",
  "agents",
  "mode",
  "signer",
  "computedHash",
  "files",
];

/** The lock as written: skills, files and unknown keys sorted, each entry's own keys in a fixed order, two-space indent, final newline. */
export function formatLock(lock: Lock): string {
  const sortedKeys = (object: Record<string, unknown>) =>
    Object.keys(object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const skills: Record<string, unknown> = {};
  for (const name of sortedKeys(lock.skills)) {
    const entry = lock.skills[name]! as Record<string, unknown>;
    const ordered: Record<string, unknown> = {};
    for (const key of [...ENTRY_KEYS, ...sortedKeys(entry).filter((key) => !ENTRY_KEYS.includes(key))]) {
      const value = entry[key];
      if (value === undefined) continue;
      if (key === "files") {
        const files = value as Record<string, string>;
        ordered.files = Object.fromEntries(sortedKeys(files).map((path) => [path, files[path]]));
      } else ordered[key] = key === "agents" ? [...(value as string[])].sort() : value;
    }
    skills[name] = ordered;
  }
  return `${JSON.stringify({ version: lock.version, skills }, null, 2)}\n`;
}

/** Writes the lock atomically: a temporary file beside it, renamed over it. */
export async function writeLock(file: string, lock: Lock): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, formatLock(lock), { flag: "wx" });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new UserError(`cannot write ${file}: ${errorMessage(error)}`, 1);
  }
}
