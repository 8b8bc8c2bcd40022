import { lstatSync, type Stats } from "node:fs";
import type { Cache, JsonValue } from "../../kernel/cache.js";
import { toPlainData } from "../../skills/plain-data.js";
import type { SourceSkill } from "../../skills/types.js";
import { VERSION } from "../../version.js";
import type { PathDiagnostic, SkillFolder } from "./scan.js";

/**
 * What identifies one version of a SKILL.md: the same file (device, inode), not written to
 * (size, mtime), not renamed, relinked or chmod'ed (ctime) since. The times are milliseconds with
 * their fraction (a double keeps about a tenth of a microsecond at today's dates).
 */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** What reading one SKILL.md gave: the skill, or why it was skipped, and its warnings. */
export interface SkillRead {
  readonly skill?: SourceSkill;
  readonly diagnostics: readonly PathDiagnostic[];
}

/** A stored read of one folder's SKILL.md, for a rank to stamp on it. */
export interface RecalledRead {
  readonly identity: FileIdentity;
  read(rank: number): SkillRead;
}

export interface ReadCache {
  /** Stored reads for these SKILL.md files, by file path; a file with none is missing. */
  recall(folders: readonly SkillFolder[]): Promise<Map<string, RecalledRead>>;
  /** Store what reading a file of this identity gave (the identity taken before the read). */
  keep(folder: SkillFolder, identity: FileIdentity, read: SkillRead): void;
}

/** What parsing depends on besides the file: a change to either is a different entry. */
export interface ReadCacheLimits {
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
}

/**
 * A file modified this recently may be written again within the same timestamp tick, leaving its
 * identity unchanged: such a read is not stored ("racily clean", as git calls it).
 */
const RACY_WINDOW_MS = 2_000;
/** Cache reads asked for at once during a recall: four of the cache's batches, so Redis answers one while the next is read. */
const RECALL_BATCH = 1024;

/**
 * The fs source's reads of SKILL.md files, kept in the shared cache (TOKENS.Cache) by file path:
 * a load whose file still has the stored identity takes the stored result instead of reading and
 * parsing the file again. Over Redis this makes a restart over thousands of unchanged skills
 * cost one lstat per skill. Entries hold plain data only and are checked field by field when read
 * back, frontmatter rebuilt as the parser builds it: a malformed or hostile entry is a miss, never
 * a crash or a polluted prototype.
 */
export function createReadCache(cache: Cache, limits: ReadCacheLimits): ReadCache {
  // The package version in the namespace: a release that parses differently never reads an
  // older release's entries.
  const store = cache.scope(`skill-md@${VERSION}`);
  const parseLimits = `${limits.maxFrontmatterBytes}/${limits.maxSkillFileBytes}`;
  return {
    async recall(folders) {
      const recalled = new Map<string, RecalledRead>();
      for (let start = 0; start < folders.length; start += RECALL_BATCH) {
        const batch = folders.slice(start, start + RECALL_BATCH);
        const entries = await Promise.all(batch.map((folder) => store.get(folder.file)));
        batch.forEach((folder, index) => {
          const entry = checkEntry(entries[index], folder, parseLimits);
          if (entry) recalled.set(folder.file, entry);
        });
      }
      return recalled;
    },
    keep(folder, identity, read) {
      if (identity.mtimeMs > Date.now() - RACY_WINDOW_MS) return;
      const entry: StoredEntry = {
        identity,
        folderPath: folder.path,
        limits: parseLimits,
        skill: read.skill ? { name: read.skill.name, description: read.skill.description, frontmatter: read.skill.frontmatter as JsonValue, excerpt: read.skill.excerpt } : null,
        issues: read.diagnostics.map(({ severity, code, message }) => ({ severity, code, message })),
      };
      void store.set(folder.file, entry as unknown as JsonValue);
    },
  };
}

/**
 * The identity of a listed SKILL.md now, if it is a regular file (a symlinked one is never
 * cached). Synchronous: one lstat of a file the scan just listed answers from the kernel's
 * caches in microseconds, far less than the bookkeeping of an asynchronous call.
 */
export function currentIdentity(folder: SkillFolder): FileIdentity | undefined {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(folder.file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!stats?.isFile()) return undefined;
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

interface StoredEntry {
  readonly identity: FileIdentity;
  /** The folder's path within its root, which the stored name check and diagnostics depended on. */
  readonly folderPath: string;
  readonly limits: string;
  readonly skill: { name: string; description: string; frontmatter: JsonValue; excerpt: string } | null;
  readonly issues: readonly { severity: "error" | "warning"; code: string; message: string }[];
}

const IDENTITY_FIELDS = ["dev", "ino", "size", "mtimeMs", "ctimeMs"] as const;

/** A stored entry as a recalled read, or undefined for anything not exactly what keep wrote. */
function checkEntry(value: unknown, folder: SkillFolder, limits: string): RecalledRead | undefined {
  // Where the folder sits in its root decides its name check: another path is another read.
  if (!isObject(value) || value.limits !== limits || value.folderPath !== folder.path) return undefined;
  const { identity, skill, issues } = value;
  if (!isObject(identity) || !IDENTITY_FIELDS.every((field) => typeof identity[field] === "number")) return undefined;
  if (!Array.isArray(issues) || !issues.every(isIssue)) return undefined;
  let stored: Omit<SourceSkill, "path" | "rank"> | undefined;
  if (skill !== null) {
    if (!isObject(skill) || !isObject(skill.frontmatter)) return undefined;
    const { name, description, excerpt } = skill;
    if (typeof name !== "string" || typeof description !== "string" || typeof excerpt !== "string") return undefined;
    // Back to null-prototype plain data without unsafe keys, as the parser hands it out.
    const frontmatter = toPlainData(skill.frontmatter).value as Record<string, unknown>;
    stored = { name, description, excerpt, frontmatter };
  }
  return {
    identity: identity as unknown as FileIdentity,
    read(rank) {
      return {
        skill: stored ? { ...stored, path: folder.path, rank } : undefined,
        diagnostics: (issues as StoredEntry["issues"]).map((issue) => ({ ...issue, path: folder.path })),
      };
    },
  };
}

function isIssue(value: unknown): boolean {
  return (
    isObject(value) &&
    (value.severity === "error" || value.severity === "warning") &&
    typeof value.code === "string" &&
    typeof value.message === "string"
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
