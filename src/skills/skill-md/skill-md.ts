import { Buffer } from "node:buffer";
import { isScalar, LineCounter, parseDocument, visit, type Document, type YAMLError } from "yaml";
import { errorMessage } from "../../kernel/errors.js";
import { toPlainData } from "./plain-data.js";
import { parseSimpleFrontmatter } from "./simple-frontmatter.js";

/** One problem found in a SKILL.md; the caller turns it into a Diagnostic. */
export interface SkillMdIssue {
  /** A stable, machine-readable kind: "yaml-parse", "no-frontmatter", "name-mismatch"... */
  readonly code: string;
  /** What is wrong, in words, for whoever fixes the SKILL.md. */
  readonly message: string;
}

/** A SKILL.md the loader accepted: its metadata, the start of its body, and what it repaired. */
export interface ParsedSkillMd {
  /** The frontmatter's name, or the folder's when it has none (a warning says so). */
  readonly name: string;
  /** Trailing whitespace trimmed (block scalars end with a newline). */
  readonly description: string;
  /** Null-prototype objects all the way down, unsafe keys dropped. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Problems the skill loads despite. */
  readonly warnings: readonly SkillMdIssue[];
  /** The start of the markdown body, for rankers that weigh what a skill says it does. */
  readonly excerpt: string;
}

/** What parseSkillMd gives: the parsed skill, or the one problem that keeps it from loading. */
export type SkillMdResult =
  | { readonly ok: true; readonly skill: ParsedSkillMd }
  | { readonly ok: false; readonly error: SkillMdIssue };

/** What parseSkillMd needs beyond the text: the folder it sits in and how much of it was read. */
export interface ParseSkillMdOptions {
  /** The skill folder's name: the fallback name, and what `name` is expected to equal. */
  readonly folderName: string;
  /** Larger frontmatter is refused before it reaches the YAML parser. */
  readonly maxFrontmatterBytes: number;
  /** True when `text` is only the head of a longer file. */
  readonly truncated: boolean;
}

/** Enough of the body for a ranker to see its opening instructions and headings. */
export const EXCERPT_CHARS = 2_000;

/** The Agent Skills spec's limits; breaking them is a warning, since clients load such skills anyway. */
export const MAX_DESCRIPTION_CHARS = 1024;
export const MAX_NAME_CHARS = 64;
/** Lowercase letters, digits and single hyphens, neither first nor last. */
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * How far aliases may expand, in yaml's measure (uses of an anchor times the aliases nested in
 * it). Real frontmatter hardly uses aliases; a small budget makes "billion laughs" fail at once.
 */
const MAX_ALIAS_COUNT = 100;

const YAML_OPTIONS = {
  // YAML 1.2 core: `yes`, `no` and `on` stay strings instead of YAML 1.1 booleans.
  schema: "core",
  // `<<` merges are a YAML 1.1 feature; off, `<<` is an ordinary key.
  merge: false,
  // Without this, `!!binary`, `!!set` or `!!timestamp` would yield Uint8Array, Set or Date, not
  // plain data. Unknown and disabled tags resolve as their plain value, with a warning.
  resolveKnownTags: false,
  // yaml's duplicate check compares every key with every other, quadratic in the number of keys.
  // findDuplicateKeys does the same job in linear time.
  uniqueKeys: false,
  // Messages without the multi-line source excerpt; positions come from the LineCounter.
  prettyErrors: false,
  // Never write to the console: in a stdio server, noise on stderr at best.
  logLevel: "silent",
} as const;

/** Parses a SKILL.md (or the head of one) into the skill's metadata, or the reason to skip it. */
export function parseSkillMd(text: string, options: ParseSkillMdOptions): SkillMdResult {
  const block = extractFrontmatter(text, options);
  if ("code" in block) return { ok: false, error: block };
  return parseFrontmatterBlock(block, options);
}

/** parseSkillMd past the split, for a caller that split the text already (extractFrontmatter). */
export function parseFrontmatterBlock(
  block: FrontmatterBlock,
  options: Pick<ParseSkillMdOptions, "folderName">,
): SkillMdResult {
  let parsed: Pick<ParsedFrontmatter, "data" | "warnings"> | SkillMdIssue;
  try {
    // The common form needs no YAML parser; it gives what yaml would, and no warnings.
    const simple = parseSimpleFrontmatter(block.yaml);
    parsed = simple ? { data: simple, warnings: [] } : parseFrontmatter(block.yaml);
  } catch (error) {
    // toJS throws on alias bombs and unknown anchors, toPlainData on recursive aliases; and
    // whatever else hostile YAML provokes must cost one skill, never the whole listing.
    return { ok: false, error: { code: "yaml-parse", message: errorMessage(error) } };
  }
  if ("code" in parsed) return { ok: false, error: parsed };
  const fields = readFields(parsed.data, parsed.warnings, options.folderName);
  return fields.ok
    ? { ok: true, skill: { ...fields.skill, excerpt: block.body.slice(0, EXCERPT_CHARS).trim() } }
    : fields;
}

export interface FrontmatterBlock {
  readonly yaml: string;
  /** Everything after the closing line, line breaks normalised to "\n". */
  readonly body: string;
}

/**
 * Splits a SKILL.md into its frontmatter YAML and its body, or says why it has none. A frontmatter
 * over `maxFrontmatterBytes` is refused here, before it can reach the YAML parser.
 */
export function extractFrontmatter(
  text: string,
  options: Pick<ParseSkillMdOptions, "maxFrontmatterBytes" | "truncated">,
): FrontmatterBlock | SkillMdIssue {
  // Editors on Windows save a BOM and CRLF, old Mac ones CR alone: all mean the same file.
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Most files have no CR at all: one scan for it is far cheaper than a replace that finds none.
  const normalized = unmarked.includes("\r") ? unmarked.replace(/\r\n?/g, "\n") : unmarked;
  const firstBreak = normalized.indexOf("\n");
  const firstLine = firstBreak === -1 ? normalized : normalized.slice(0, firstBreak);
  // Only the very first line opens a frontmatter: a `---` further down is a markdown rule.
  if (!/^---[ \t]*$/.test(firstLine)) {
    return { code: "no-frontmatter", message: "SKILL.md does not start with a --- frontmatter line" };
  }
  const start = firstBreak === -1 ? normalized.length : firstBreak + 1;
  const closing = /^(?:---|\.\.\.)[ \t]*$/gm;
  closing.lastIndex = start;
  const end = closing.exec(normalized)?.index;
  if (end === undefined) {
    if (!options.truncated) return { code: "unclosed-frontmatter", message: "frontmatter has no closing --- line" };
    return { code: "frontmatter-too-large", message: "frontmatter is not closed within the maxSkillFileBytes read" };
  }
  const yaml = normalized.slice(start, end);
  const afterClosing = normalized.indexOf("\n", end);
  const body = afterClosing === -1 ? "" : normalized.slice(afterClosing + 1);
  const bytes = Buffer.byteLength(yaml);
  if (bytes > options.maxFrontmatterBytes) {
    return {
      code: "frontmatter-too-large",
      message: `frontmatter is ${bytes} bytes, over the limit of ${options.maxFrontmatterBytes}`,
    };
  }
  return { yaml, body };
}

export interface ParsedFrontmatter {
  /** Null-prototype plain data, unsafe keys dropped. */
  readonly data: unknown;
  /** The parsed document, for checks that need to see how a value was written (quoted or not). */
  readonly doc: Document.Parsed;
  /** Codes: yaml-repaired, yaml-warning, duplicate-key, unsafe-key. */
  readonly warnings: SkillMdIssue[];
}

/**
 * Parses frontmatter YAML with the safe settings (YAML 1.2 core, no custom tags, alias budget).
 * Returns a "yaml-parse" issue for YAML it cannot read; may throw on hostile aliases, so callers
 * catch.
 */
export function parseFrontmatter(yaml: string): ParsedFrontmatter | SkillMdIssue {
  const warnings: SkillMdIssue[] = [];
  let parsed = parseYaml(yaml);
  if (parsed.doc.errors.length > 0) {
    const original = describeError(parsed.doc.errors[0]!, parsed.lines);
    // Agent Skills clients are told to accept `description: Use when: ...`, which strict YAML
    // refuses; quoting those values is the one repair they agree on.
    const repaired = quoteColonValues(yaml);
    const retry = repaired === yaml ? undefined : parseYaml(repaired);
    if (retry === undefined || retry.doc.errors.length > 0) return { code: "yaml-parse", message: original };
    parsed = retry;
    warnings.push({ code: "yaml-repaired", message: `quoted values holding ": " to get past: ${original}` });
  }
  const { doc, lines } = parsed;

  if (doc.warnings.length > 0) {
    const more = doc.warnings.length > 1 ? ` (and ${doc.warnings.length - 1} more)` : "";
    warnings.push({ code: "yaml-warning", message: describeError(doc.warnings[0]!, lines) + more });
  }
  for (const key of findDuplicateKeys(doc)) {
    warnings.push({ code: "duplicate-key", message: `key "${key}" appears more than once; the last one wins` });
  }

  const plain = toPlainData(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
  if (plain.droppedKeys.length > 0) {
    const keys = plain.droppedKeys.join(", ");
    warnings.push({ code: "unsafe-key", message: `dropped keys that could reach object prototypes: ${keys}` });
  }
  return { data: plain.value, doc, warnings };
}

function parseYaml(yaml: string): { readonly doc: Document.Parsed; readonly lines: LineCounter } {
  const lines = new LineCounter();
  return { doc: parseDocument(yaml, { ...YAML_OPTIONS, lineCounter: lines }), lines };
}

/** A one-line message with the position in SKILL.md, whose line 1 is the opening `---`. */
function describeError(error: YAMLError, lines: LineCounter): string {
  const { line, col } = lines.linePos(error.pos[0]);
  return `line ${line + 1}, column ${col}: ${error.message}`;
}

const TOP_LEVEL_PAIR = /^([A-Za-z0-9_][\w.-]*):[ \t]+(.*?)[ \t]*$/;

/**
 * Wraps each top-level plain value holding a colon that YAML reads as a nested key (": " or a
 * trailing ":") in single quotes. Values that already start with YAML syntax are left alone.
 */
function quoteColonValues(yaml: string): string {
  return yaml
    .split("\n")
    .map((line) => {
      const match = TOP_LEVEL_PAIR.exec(line);
      const key = match?.[1];
      const value = match?.[2];
      if (key === undefined || value === undefined || !/:(?: |$)/.test(value) || /^["'|>[{&*!#]/.test(value)) {
        return line;
      }
      return `${key}: '${value.replaceAll("'", "''")}'`;
    })
    .join("\n");
}

function findDuplicateKeys(doc: Document.Parsed): string[] {
  const duplicates: string[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        // Only scalar keys can collide: toJS turns them into the same property name.
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key)) duplicates.push(key);
        seen.add(key);
      }
    },
  });
  return duplicates;
}

function readFields(
  data: unknown,
  warnings: SkillMdIssue[],
  folderName: string,
): { ok: true; skill: Omit<ParsedSkillMd, "excerpt"> } | { ok: false; error: SkillMdIssue } {
  if (!isRecord(data)) {
    return {
      ok: false,
      error: { code: "frontmatter-not-mapping", message: `frontmatter is ${kindOf(data)}, not a mapping` },
    };
  }

  const rawDescription = field(data, "description", warnings);
  const blank = typeof rawDescription === "string" && rawDescription.trim() === "";
  if (rawDescription === undefined || rawDescription === null || blank) {
    return { ok: false, error: { code: "missing-description", message: "frontmatter has no description" } };
  }
  if (typeof rawDescription !== "string") {
    return {
      ok: false,
      error: { code: "invalid-description", message: `description is ${kindOf(rawDescription)}, not a string` },
    };
  }
  const description = rawDescription.trimEnd();
  // Characters are counted by code point, never more than code units: most descriptions are
  // short enough to need no count.
  const length = description.length > MAX_DESCRIPTION_CHARS ? [...description].length : 0;
  if (length > MAX_DESCRIPTION_CHARS) {
    warnings.push({
      code: "description-too-long",
      message: `description is ${length} characters, over the ${MAX_DESCRIPTION_CHARS} the spec allows`,
    });
  }

  const name = readName(field(data, "name", warnings), folderName, warnings);
  return { ok: true, skill: { name, description, frontmatter: data, warnings } };
}

function readName(raw: unknown, folderName: string, warnings: SkillMdIssue[]): string {
  const problems: string[] = [];
  let name: string;
  if (raw === undefined || raw === null || raw === "") {
    warnings.push({ code: "missing-name", message: `frontmatter has no name; using the folder name "${folderName}"` });
    name = folderName;
  } else {
    if (typeof raw === "string") name = raw;
    else if (typeof raw === "number" || typeof raw === "boolean") {
      name = String(raw);
      problems.push(`name is ${kindOf(raw)}, not a string`);
    } else {
      name = folderName;
      problems.push(`name is ${kindOf(raw)}; using the folder name`);
    }
    if (name !== folderName) {
      warnings.push({ code: "name-mismatch", message: `name "${name}" differs from its folder "${folderName}"` });
    }
  }
  if (name.length > MAX_NAME_CHARS) problems.push(`name is longer than ${MAX_NAME_CHARS} characters`);
  else if (!NAME_PATTERN.test(name)) problems.push(`"${name}" is not lowercase letters, digits and single hyphens`);
  if (problems.length > 0) warnings.push({ code: "invalid-name", message: problems.join("; ") });
  return name;
}

/**
 * Reads a field, falling back to a case variant (`Name` for `name`) when the exact key is absent:
 * real skills have such keys, and what their authors meant is plain.
 */
function field(data: Record<string, unknown>, key: string, warnings: SkillMdIssue[]): unknown {
  if (Object.hasOwn(data, key)) return data[key];
  const variant = Object.keys(data).find((candidate) => candidate.toLowerCase() === key);
  if (variant === undefined) return undefined;
  warnings.push({ code: "case-variant-key", message: `no "${key}" key; using "${variant}"` });
  return data[variant];
}

/** A YAML mapping, as plain data. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a value is, in the words a skill author uses: "a list", "a mapping", "a number"... */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `a ${typeof value}`;
}
