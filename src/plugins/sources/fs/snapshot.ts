import type { JsonValue } from "../../../kernel/cache.js";
import type { SourceSkill } from "../../../skills/types.js";
import type { FolderIdentity, FolderListing } from "./folder-listings.js";
import type { FileIdentity } from "./read-skill-file.js";
import type { SkillFileKind } from "./scan.js";
import type { ReadRecord } from "./source.js";

/**
 * One root as a load left it, the form kept across restarts (snapshot-store.ts): every folder's
 * listing under the identity it was listed with, and every SKILL.md's parse under the identity it
 * was read with. A restart takes a listing or a parse only where the identity still matches.
 *
 * Records are arrays, not objects: 10,000 skills make about 20,000 of them. A folder:
 *   ["d", rel, dev, ino, mtimeMs, ctimeMs, skillFile name | 0, skillFile kind | 0, children | 0, links | 0]
 * a SKILL.md read (the file is the folder's skillFile):
 *   ["s", rel, dev, ino, size, mtimeMs, ctimeMs, skill | 0, diagnostics | 0]
 * where skill is [name | 0, description | 0, frontmatter, excerpt] (0: the frontmatter's own
 * value, most skills' case), each diagnostic [severity, code, message], and 0 stands for an
 * empty list too: most folders hold no sub-folder, most skills have no diagnostic, and each
 * empty array would be one more object to parse.
 */
export type SnapshotRecord = readonly JsonValue[];

export interface KnownFolder {
  readonly identity: FolderIdentity;
  readonly listing: FolderListing;
}

/** What a restart can reuse of a stored snapshot, records checked and rebuilt. */
export interface RecalledRoot {
  /** By folder path in the root. */
  readonly folders: Map<string, KnownFolder>;
  /** By skill folder path in the root, stamped with the rank of this load. */
  readonly reads: Map<string, ReadRecord>;
}

export function folderRecord(rel: string, { identity, listing }: KnownFolder): SnapshotRecord {
  const { skillFile } = listing;
  return [
    "d",
    rel,
    identity.dev,
    identity.ino,
    identity.mtimeMs,
    identity.ctimeMs,
    skillFile?.name ?? 0,
    skillFile ? encodeKind(skillFile.kind) : 0,
    listing.children.length === 0 ? 0 : listing.children,
    listing.links.length === 0 ? 0 : listing.links,
  ];
}

export function readRecord(rel: string, { identity, read }: ReadRecord): SnapshotRecord {
  const skill = read.skill;
  const frontmatter = skill?.frontmatter;
  return [
    "s",
    rel,
    identity.dev,
    identity.ino,
    identity.size,
    identity.mtimeMs,
    identity.ctimeMs,
    skill
      ? [
          frontmatter!.name === skill.name ? 0 : skill.name,
          frontmatter!.description === skill.description ? 0 : skill.description,
          frontmatter as JsonValue,
          skill.excerpt,
        ]
      : 0,
    read.diagnostics.length === 0
      ? 0
      : read.diagnostics.map(({ severity, code, message }) => [severity, code, message]),
  ];
}

/**
 * The folders and reads of stored records. Every field is checked and frontmatter is rebuilt as
 * the parser builds it (null prototypes, no `__proto__` keys): a malformed record is left out,
 * so its folder is listed or its file read as if never stored, never a crash.
 */
export function recallRecords(records: Iterable<unknown>, rank: number): RecalledRoot {
  const folders = new Map<string, KnownFolder>();
  const reads = new Map<string, ReadRecord>();
  for (const record of records) {
    if (!Array.isArray(record) || typeof record[1] !== "string") continue;
    if (record[0] === "d") {
      const folder = checkFolder(record);
      if (folder) folders.set(record[1], folder);
    } else if (record[0] === "s") {
      const read = checkRead(record, rank);
      if (read) reads.set(record[1], read);
    }
  }
  return { folders, reads };
}

const NONE: readonly never[] = [];

function checkFolder(record: unknown[]): KnownFolder | undefined {
  const [, , dev, ino, mtimeMs, ctimeMs, name, kind, storedChildren, storedLinks] = record;
  const children = storedChildren === 0 ? NONE : storedChildren;
  const links = storedLinks === 0 ? NONE : storedLinks;
  if (!areNumbers(dev, ino, mtimeMs, ctimeMs) || !Array.isArray(children) || !Array.isArray(links)) return undefined;
  for (const child of children)
    if (typeof child !== "string" || child === "" || child.includes("/") || child === "." || child === "..")
      return undefined;
  for (let at = 0; at < links.length; at++) {
    const index = links[at];
    if (!Number.isInteger(index) || index < (at === 0 ? 0 : links[at - 1] + 1) || index >= children.length)
      return undefined;
  }
  const identity = { dev, ino, mtimeMs, ctimeMs } as FolderIdentity;
  if (name === 0) return { identity, listing: { children, links } };
  const fileKind = decodeKind(kind);
  if ((name !== "SKILL.md" && name !== "skill.md") || !fileKind) return undefined;
  return { identity, listing: { skillFile: { name, kind: fileKind }, children, links } };
}

function checkRead(record: unknown[], rank: number): ReadRecord | undefined {
  const [, path, dev, ino, size, mtimeMs, ctimeMs, skill, storedDiagnostics] = record as [
    unknown,
    string,
    ...unknown[],
  ];
  const diagnostics = storedDiagnostics === 0 ? NONE : storedDiagnostics;
  if (!areNumbers(dev, ino, size, mtimeMs, ctimeMs) || !Array.isArray(diagnostics)) return undefined;
  const checked: ReadRecord["read"]["diagnostics"][number][] = diagnostics.length === 0 ? (NONE as never[]) : [];
  for (const diagnostic of diagnostics) {
    if (!Array.isArray(diagnostic)) return undefined;
    const [severity, code, message] = diagnostic;
    if ((severity !== "error" && severity !== "warning") || typeof code !== "string" || typeof message !== "string")
      return undefined;
    checked.push({ severity, path, code, message });
  }
  let recalled: SourceSkill | undefined;
  if (skill !== 0) {
    if (!Array.isArray(skill) || typeof skill[3] !== "string" || !isObject(skill[2])) return undefined;
    const frontmatter = asParsed(skill[2], 0) as Record<string, unknown> | undefined;
    if (!frontmatter) return undefined;
    const name = skill[0] === 0 ? frontmatter.name : skill[0];
    const description = skill[1] === 0 ? frontmatter.description : skill[1];
    if (typeof name !== "string" || name === "" || typeof description !== "string") return undefined;
    // JSON.parse gives strings of their own, one byte a character where they can be.
    const excerpt: string = skill[3];
    recalled = { name, description, path, frontmatter, excerpt, rank };
  }
  return {
    identity: { dev, ino, size, mtimeMs, ctimeMs } as FileIdentity,
    read: { skill: recalled, diagnostics: checked },
  };
}

/** Keys the parser drops (see plain-data.ts): they would reach a prototype when merged elsewhere. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Deeper frontmatter is not stored data this module wrote. */
const MAX_DEPTH = 64;

/**
 * A value of a record, fresh from JSON.parse, made what the parser hands out: objects of null
 * prototype without unsafe keys. Changed in place (nothing else holds them): quicker than copying
 * into Object.create(null) objects, and the objects keep their fast layout. Undefined
 * when nested past MAX_DEPTH.
 */
function asParsed(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_DEPTH) return undefined;
  const items = value as Record<string, unknown>;
  // JSON.parse makes `__proto__` an own data key like any other, which Object.keys lists.
  for (const key of Object.keys(items)) {
    if (UNSAFE_KEYS.has(key) && !Array.isArray(items)) {
      delete items[key];
      continue;
    }
    const item = items[key];
    if (typeof item !== "object" || item === null) continue;
    const parsed = asParsed(item, depth + 1);
    if (parsed === undefined) return undefined;
  }
  if (!Array.isArray(items)) Object.setPrototypeOf(items, null);
  return items;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function areNumbers(a: unknown, b: unknown, c: unknown, d: unknown, e: unknown = 0): boolean {
  return isFiniteNumber(a) && isFiniteNumber(b) && isFiniteNumber(c) && isFiniteNumber(d) && isFiniteNumber(e);
}

function isFiniteNumber(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

function encodeKind(kind: SkillFileKind): string {
  return kind === "file" || kind === "link" ? kind : `not:${kind.notFile}`;
}

function decodeKind(kind: unknown): SkillFileKind | undefined {
  if (kind === "file" || kind === "link") return kind;
  return typeof kind === "string" && kind.startsWith("not:") ? { notFile: kind.slice(4) } : undefined;
}
