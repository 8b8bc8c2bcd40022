import type { Cache, JsonValue } from "../../kernel/cache.js";
import { toPlainData } from "../../skills/plain-data.js";
import type { SourceSkill } from "../../skills/types.js";
import { VERSION } from "../../version.js";
import type { FileIdentity } from "./read-skill-file.js";
import type { SkillFolder } from "./scan.js";
import type { ReadRecord } from "./source.js";

export interface ReadCache {
  /** Stored records for these SKILL.md files, by file path, stamped with `rank`; a file with none is missing. */
  recall(folders: readonly SkillFolder[], rank: number): Promise<Map<string, ReadRecord>>;
  /** Store what reading a file gave, under the identity it was read with. */
  keep(folder: SkillFolder, record: ReadRecord): void;
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
 * The fs source's read records of SKILL.md files, kept in the shared cache (TOKENS.Cache) by file
 * path: a first load takes a stored record as if an earlier load of this process had made it, so
 * a file that still has the stored identity is not read or parsed again. Over Redis a restart
 * over thousands of unchanged skills costs one lstat per skill. Entries hold plain data only and are checked field by field when read
 * back, frontmatter rebuilt as the parser builds it: a malformed or hostile entry is a miss, never
 * a crash or a polluted prototype.
 */
export function createReadCache(cache: Cache, limits: ReadCacheLimits): ReadCache {
  // The package version in the namespace: a release that parses differently never reads an
  // older release's entries.
  const store = cache.scope(`skill-md@${VERSION}`);
  const parseLimits = `${limits.maxFrontmatterBytes}/${limits.maxSkillFileBytes}`;
  return {
    async recall(folders, rank) {
      const recalled = new Map<string, ReadRecord>();
      for (let start = 0; start < folders.length; start += RECALL_BATCH) {
        const batch = folders.slice(start, start + RECALL_BATCH);
        const entries = await Promise.all(batch.map((folder) => store.get(folder.file)));
        batch.forEach((folder, index) => {
          const record = checkEntry(entries[index], folder, parseLimits, rank);
          if (record) recalled.set(folder.file, record);
        });
      }
      return recalled;
    },
    keep(folder, { identity, read }) {
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

interface StoredEntry {
  readonly identity: FileIdentity;
  /** The folder's path within its root, which the stored name check and diagnostics depended on. */
  readonly folderPath: string;
  readonly limits: string;
  readonly skill: { name: string; description: string; frontmatter: JsonValue; excerpt: string } | null;
  readonly issues: readonly { severity: "error" | "warning"; code: string; message: string }[];
}

const IDENTITY_FIELDS = ["dev", "ino", "size", "mtimeMs", "ctimeMs"] as const;

/** A stored entry as a record of `folder` at `rank`, or undefined for anything not exactly what keep wrote. */
function checkEntry(value: unknown, folder: SkillFolder, limits: string, rank: number): ReadRecord | undefined {
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
    identity: { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeMs: identity.mtimeMs, ctimeMs: identity.ctimeMs } as FileIdentity,
    read: {
      skill: stored ? { ...stored, path: folder.path, rank } : undefined,
      diagnostics: (issues as StoredEntry["issues"]).map((issue) => ({ ...issue, path: folder.path })),
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
