import { Buffer } from "node:buffer";
import { z } from "zod";
import type { CatalogSkill } from "../catalog/catalog-types.js";
import type { CatalogView } from "../catalog/catalog-view.js";
import { errorMessage, SkillFileError, ToolInputError } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import { INCLUDE_SECRET_FILES_DESCRIPTION, isSecretPath, SECRET_REASON } from "./secret-files.js";
import type { SkillFileContent, SkillFileListing } from "../types.js";
import { hasUnsafeCharacter } from "../display-text.js";

// What the skill tools share: which relative paths may even be asked for, how a file's bytes
// reach the agent, and the size caps. Sources check the disk; these rules come first, and touch
// nothing.

export const MiB = 1024 * 1024;

/** The most of one file (or one SKILL.md) a tool returns unless configured otherwise. */
const DEFAULT_MAX_FILE_BYTES = MiB;

/**
 * The options of the plugins that serve skill files. The cap is bounded above too: a response
 * carries a file twice (text and structured content), base64 adds a third, and clients hold it
 * all in memory.
 */
export const skillFileOptionsSchema = z.strictObject({
  /** The most of one file (SKILL.md included) returned; the rest is cut, and the cut is said. */
  maxFileBytes: z
    .number()
    .int()
    .min(1)
    .max(16 * MiB)
    .default(DEFAULT_MAX_FILE_BYTES),
  /** Serve files named like credentials too: INCLUDE_SECRET_FILES_DESCRIPTION. */
  includeSecretFiles: z.boolean().default(false).describe(INCLUDE_SECRET_FILES_DESCRIPTION),
});

export type SkillFileOptions = z.infer<typeof skillFileOptionsSchema>;

/** A listing without the files named like credentials (unless they are included), and how many that took out. */
export function withoutSecrets(
  listing: SkillFileListing,
  includeSecretFiles: boolean,
): SkillFileListing & { withheld: number } {
  if (includeSecretFiles) return { ...listing, withheld: 0 };
  const files = listing.files.filter((file) => !isSecretPath(file.path));
  return { ...listing, files, withheld: listing.files.length - files.length };
}

/** How many of a skill's files read_skill shows. */
export const SHOWN_FILES_LIMIT = 200;

/**
 * How many of a skill's files (sorted by path) may be fetched: more than read_skill shows, so a
 * file that SKILL.md names is fetchable even in a folder too large to show whole. A source stats
 * each file it lists, so this also bounds the work of checking a request.
 */
export const FETCHABLE_FILES_LIMIT = 2_000;

/** Longer relative paths are refused unread: no real skill nests that deep or names that long. */
export const MAX_PATH_CHARS = 1_024;

// %2e ".", %2f "/", %5c "\", %00 NUL, and %25 "%" itself, which is how double encoding starts.
const ENCODED_TRAVERSAL = /%(?:2e|2f|5c|00|25)/i;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[a-z]:/i;
// Characters that read as "/" or "\" and are none to the disk (division and fraction slash, set
// minus, box-drawing diagonals, big and small solidi): "a∕..∕b" is shown as a path it is not.
const LOOK_ALIKE_SEPARATOR = /[\u1735\u2044\u2215\u2216\u2571\u2572\u29f5\u29f8\u29f9\ufe68\uff0f\uff3c]/;

/** Whether `text` holds a character that looks like a path separator but is not one. */
export function hasLookAlikeSeparator(text: string): boolean {
  return LOOK_ALIKE_SEPARATOR.test(text);
}

/**
 * Why `path` cannot name a file inside a skill folder, or undefined when it can. Sources resolve
 * what passes against the disk; this refuses, unread, every spelling meant to step out of the
 * folder, or to reach a different file than the one listed.
 */
export function checkRelativePath(path: string): string | undefined {
  if (path === "") return "the path is empty";
  if (path.length > MAX_PATH_CHARS) return `the path is longer than ${MAX_PATH_CHARS} characters`;
  if (path.includes("\0")) return "the path holds a NUL byte";
  if (CONTROL_CHARACTER.test(path)) return "the path holds a control character";
  // A right-to-left override makes "txt.exe" read as "exe.txt" in every listing that shows it.
  if (hasUnsafeCharacter(path)) return "the path holds an invisible or bidirectional formatting character";
  if (path.includes("\\")) return 'the path holds a backslash; separate folders with "/"';
  if (path.startsWith("/") || DRIVE_LETTER.test(path)) {
    return "the path is absolute; give it relative to the skill folder, as read_skill lists it";
  }
  if (ENCODED_TRAVERSAL.test(path)) return "the path holds a percent-encoded '.', '/', '\\', NUL or '%'";
  const segmentProblem = checkSegments(path);
  if (segmentProblem) return segmentProblem;
  // Fullwidth and other compatibility forms ("．．／") read as "../" to anything that normalises
  // Unicode on the way to the disk.
  const normalised = path.normalize("NFKC");
  if (normalised !== path && (normalised.includes("\\") || checkSegments(normalised))) {
    return "the path holds characters that read as '.', '/' or '\\' once Unicode-normalised";
  }
  if (hasLookAlikeSeparator(path)) return "the path holds a character that looks like '/' or '\\' but is none";
  return undefined;
}

function checkSegments(path: string): string | undefined {
  for (const segment of path.split("/")) {
    if (segment === "") return "the path has an empty segment (a leading, doubled or trailing '/')";
    if (segment === ".") return "the path has a '.' segment";
    if (segment === "..") return "the path has a '..' segment; paths may not leave the skill folder";
  }
  return undefined;
}

export interface EncodedContent {
  readonly content: string;
  readonly encoding: "utf8" | "base64";
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8");

/** A SKILL.md as text, whatever its bytes: stray invalid bytes become U+FFFD, a cut character is dropped. */
export function decodeText(bytes: Uint8Array, truncated: boolean): string {
  return lenientUtf8.decode(truncated ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes);
}

/**
 * Text when the bytes are UTF-8 without NUL, base64 otherwise: an agent reads text as is, and a
 * binary file survives JSON only encoded. A cut file may end inside a character; that tail is
 * dropped rather than turning a text file into base64.
 */
export function encodeContent(bytes: Uint8Array, truncated: boolean): EncodedContent {
  const text = truncated ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes;
  if (!text.includes(0)) {
    try {
      return { content: strictUtf8.decode(text), encoding: "utf8" };
    } catch {
      // Not UTF-8: base64 below.
    }
  }
  return {
    content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    encoding: "base64",
  };
}

/** The length of `bytes` without a multi-byte character cut off at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  // A character is at most 4 bytes: look back at most 3 for the lead byte of the last one.
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Says, in the text an agent reads, that it got only the start of a file. */
export function truncationNote(file: SkillFileContent): string {
  return `[truncated: the first ${file.bytes.length} of ${file.size} bytes]`;
}

export type FetchedFile =
  | { readonly path: string; readonly file: SkillFileContent }
  | { readonly path: string; readonly error: string };

/**
 * Reads the files an agent asked for, each on its own: a path is read only if it is spelt as a
 * relative path should be and is among the first FETCHABLE_FILES_LIMIT files the skill's source
 * lists (so never its SKILL.md, nor anything the listing leaves out); the source then refuses
 * anything whose real path is not a regular file inside the skill folder. A file named like
 * credentials is refused unless the options include them. One bad path never fails the others.
 * The skill itself must exist: an unknown id throws.
 */
export async function fetchSkillFiles(
  catalog: CatalogView,
  skill: CatalogSkill,
  paths: readonly string[],
  options: SkillFileOptions,
  logger: Logger,
): Promise<FetchedFile[]> {
  const maxBytes = options.maxFileBytes;
  const problems = paths.map(
    (path) =>
      checkRelativePath(path) ?? (!options.includeSecretFiles && isSecretPath(path) ? SECRET_REASON : undefined),
  );
  let fetchable = new Set<string>();
  if (problems.some((problem) => problem === undefined)) {
    const listing = await catalog.listFiles(skill, FETCHABLE_FILES_LIMIT);
    fetchable = new Set(listing.files.map((file) => file.path));
  }
  return Promise.all(
    paths.map(async (path, index): Promise<FetchedFile> => {
      const shown = path.length > MAX_PATH_CHARS ? `${path.slice(0, 64)}…` : path;
      const problem = problems[index];
      if (problem !== undefined) return { path: shown, error: problem };
      if (!fetchable.has(path)) return { path, error: await whyNotListed(catalog, skill, path) };
      try {
        return { path, file: await catalog.readFile(skill, path, maxBytes) };
      } catch (error) {
        if (error instanceof SkillFileError) return { path, error: error.reason };
        if (error instanceof ToolInputError) return { path, error: error.message };
        logger.error(`reading ${skill.qualifiedId}/${path} failed: ${errorMessage(error)}`);
        return { path, error: "the file could not be read" };
      }
    }),
  );
}

/**
 * Why a path is not served, as precisely as the source can say: asked for none of its bytes, it
 * still refuses a link out of the folder, a FIFO or a missing file with its reason.
 */
async function whyNotListed(catalog: CatalogView, skill: CatalogSkill, path: string): Promise<string> {
  if (path.toLowerCase() === "skill.md")
    return "the SKILL.md itself comes from read_skill, not as one of the skill's files";
  try {
    await catalog.readFile(skill, path, 0);
  } catch (error) {
    if (error instanceof SkillFileError) return error.reason;
  }
  return (
    "not one of the files read_skill lists for this skill (files past the first " +
    `${FETCHABLE_FILES_LIMIT} by path, or inside a linked folder, are not served)`
  );
}
