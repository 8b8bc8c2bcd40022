import { isMap, isScalar, parse, type Document, type Node } from "yaml";
import { errorMessage } from "../../kernel/errors.js";
import {
  extractFrontmatter,
  isRecord,
  kindOf,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
  parseFrontmatter,
  type ParsedFrontmatter,
  type SkillMdIssue,
} from "./skill-md.js";

/** One finding, named after the frontmatter field it concerns ("frontmatter" and "body" for the rest). */
export interface SpecIssue {
  /** The frontmatter field concerned ("name", "description"...), or "frontmatter" or "body". */
  readonly field: string;
  /** What is wrong, in words, for whoever fixes the SKILL.md. */
  readonly message: string;
}

/** What validateSkillDocument found: whether the SKILL.md meets the specification, and why not. */
export interface SkillValidation {
  /** No errors; warnings do not make a skill invalid. */
  readonly valid: boolean;
  /** What breaks the specification: any one makes the skill invalid. */
  readonly errors: readonly SpecIssue[];
  /** What the specification advises against, or leaves to each client (a long body, a field it does not define). */
  readonly warnings: readonly SpecIssue[];
}

/** How validateSkillDocument reads the text it is given. */
export interface ValidateOptions {
  /** Larger frontmatter is an error, refused before parsing. Default 64 KiB, as the fs source. */
  readonly maxFrontmatterBytes?: number;
  /** True when `text` is only the head of a longer file: the body is then only partly checked. */
  readonly truncated?: boolean;
}

/** The fields the Agent Skills specification (agentskills.io/specification) defines. */
const SPEC_FIELDS: readonly string[] = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

const MAX_COMPATIBILITY_CHARS = 500;
/** The spec recommends keeping SKILL.md under this and moving detail into references/. */
const MAX_BODY_LINES = 500;

const DEFAULT_MAX_FRONTMATTER_BYTES = 64 * 1024;

/**
 * Checks a SKILL.md against the Agent Skills specification. Strict where the loader
 * (skill-md.ts) is lenient: what the loader repairs or falls back on is an error here, so a
 * skills repository can keep its skills portable to every client. Never throws.
 *
 * `license` is not checked against SPDX: the spec asks for "a license name or a reference to a
 * bundled license file", so "MIT License" is as valid as "MIT".
 */
export function validateSkillDocument(
  text: string,
  directoryName?: string,
  options: ValidateOptions = {},
): SkillValidation {
  const errors: SpecIssue[] = [];
  const warnings: SpecIssue[] = [];
  const result = (): SkillValidation => ({ valid: errors.length === 0, errors, warnings });

  const maxFrontmatterBytes = options.maxFrontmatterBytes ?? DEFAULT_MAX_FRONTMATTER_BYTES;
  // Always as if whole: an unclosed frontmatter is reported in our own words below.
  const block = extractFrontmatter(text, { maxFrontmatterBytes, truncated: false });
  if ("code" in block) {
    const message =
      block.code === "unclosed-frontmatter" && options.truncated
        ? `frontmatter is not closed within the first ${text.length} characters read`
        : block.message;
    errors.push({ field: "frontmatter", message });
    return result();
  }

  let parsed: ParsedFrontmatter | SkillMdIssue;
  try {
    parsed = parseFrontmatter(block.yaml);
  } catch (error) {
    errors.push({ field: "frontmatter", message: `YAML cannot be read: ${errorMessage(error)}` });
    return result();
  }
  if ("code" in parsed) {
    errors.push({ field: "frontmatter", message: `not valid YAML: ${parsed.message}` });
    return result();
  }
  for (const issue of parsed.warnings) {
    if (issue.code === "yaml-repaired") {
      // The loader gets past it; YAML parsers in other clients refuse the whole file.
      errors.push({
        field: "frontmatter",
        message: `not valid YAML: ${issue.message.replace(/^.*?to get past: /, "")}; quote the value`,
      });
    } else if (issue.code === "duplicate-key") {
      errors.push({ field: "frontmatter", message: `${issue.message}, and strict YAML parsers refuse the file` });
    } else {
      warnings.push({ field: "frontmatter", message: issue.message });
    }
  }

  // An empty frontmatter (`---` then `---`) is an empty mapping: report the missing fields.
  const data = parsed.data ?? Object.create(null);
  if (!isRecord(data)) {
    errors.push({ field: "frontmatter", message: `must be a mapping of fields, not ${kindOf(data)}` });
    return result();
  }

  checkName(data, directoryName, errors);
  checkDescription(data, errors);
  checkOptionalString(data, "license", errors);
  if (checkOptionalString(data, "compatibility", errors)) checkCompatibility(data["compatibility"] as string, errors);
  if (Object.hasOwn(data, "metadata")) checkMetadata(data["metadata"], parsed.doc, errors);
  if (Object.hasOwn(data, "allowed-tools")) checkAllowedTools(data["allowed-tools"], errors, warnings);
  for (const key of Object.keys(data)) {
    if (SPEC_FIELDS.includes(key)) continue;
    const meant = SPEC_FIELDS.find((field) => field === key.toLowerCase());
    warnings.push({
      field: key,
      message: meant
        ? `is not a spec field: keys are case-sensitive, and the spec's is "${meant}"`
        : "is not a spec field; other clients may ignore it (the spec keeps extra data under metadata)",
    });
  }

  const lines = countLines(block.body);
  if (lines > MAX_BODY_LINES) {
    warnings.push({
      field: "body",
      message: `is ${lines} lines${options.truncated ? " or more" : ""}; the spec recommends under ${MAX_BODY_LINES}: move detail into references/`,
    });
  } else if (options.truncated) {
    warnings.push({ field: "body", message: `only the first ${text.length} characters were read and checked` });
  }
  return result();
}

function checkName(data: Record<string, unknown>, directoryName: string | undefined, errors: SpecIssue[]): void {
  const name = requiredString(data, "name", errors);
  if (name === undefined) return;
  const length = [...name].length;
  if (length > MAX_NAME_CHARS) {
    errors.push({ field: "name", message: `is ${length} characters; the spec allows at most ${MAX_NAME_CHARS}` });
  }
  if (/[^a-z0-9-]/.test(name)) {
    errors.push({ field: "name", message: `"${clip(name)}" may hold only lowercase letters a-z, digits and hyphens` });
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    errors.push({ field: "name", message: `"${clip(name)}" must not start or end with a hyphen` });
  }
  if (name.includes("--")) {
    errors.push({ field: "name", message: `"${clip(name)}" must not hold two hyphens in a row` });
  }
  if (directoryName !== undefined && name !== directoryName) {
    errors.push({ field: "name", message: `"${clip(name)}" must equal its folder's name "${clip(directoryName)}"` });
  }
}

function checkDescription(data: Record<string, unknown>, errors: SpecIssue[]): void {
  const description = requiredString(data, "description", errors);
  if (description === undefined) return;
  // Block scalars (`|`, `>`) end with a newline that no client shows.
  const length = [...description.trimEnd()].length;
  if (length > MAX_DESCRIPTION_CHARS) {
    errors.push({
      field: "description",
      message: `is ${length} characters; the spec allows at most ${MAX_DESCRIPTION_CHARS}`,
    });
  }
}

/** The field's value when it is a non-blank string; otherwise records why not. */
function requiredString(data: Record<string, unknown>, field: string, errors: SpecIssue[]): string | undefined {
  if (!Object.hasOwn(data, field)) {
    const variant = Object.keys(data).find((key) => key.toLowerCase() === field);
    errors.push({
      field,
      message: variant ? `is required; "${variant}" does not count, since keys are case-sensitive` : "is required",
    });
    return undefined;
  }
  const value = data[field];
  if (typeof value !== "string") {
    errors.push({ field, message: `must be a string, not ${kindOf(value)}` });
    return undefined;
  }
  if (value.trim() === "") {
    errors.push({ field, message: "must not be empty" });
    return undefined;
  }
  return value;
}

/** True when the field is present and a string. */
function checkOptionalString(data: Record<string, unknown>, field: string, errors: SpecIssue[]): boolean {
  if (!Object.hasOwn(data, field)) return false;
  const value = data[field];
  if (typeof value === "string") return true;
  errors.push({ field, message: `must be a string when present, not ${kindOf(value)}` });
  return false;
}

function checkCompatibility(value: string, errors: SpecIssue[]): void {
  const length = [...value.trimEnd()].length;
  if (value.trim() === "") errors.push({ field: "compatibility", message: "must not be empty when present" });
  else if (length > MAX_COMPATIBILITY_CHARS) {
    errors.push({
      field: "compatibility",
      message: `is ${length} characters; the spec allows at most ${MAX_COMPATIBILITY_CHARS}`,
    });
  }
}

/**
 * metadata must map strings to strings. A plain `updated: 2026-03-17` is a string to this
 * server's YAML 1.2 parser, but a date to the YAML 1.1 parsers many clients use (PyYAML,
 * js-yaml): only a quoted value is a string everywhere.
 */
function checkMetadata(value: unknown, doc: Document.Parsed, errors: SpecIssue[]): void {
  if (!isRecord(value)) {
    errors.push({ field: "metadata", message: `must be a map of strings to strings, not ${kindOf(value)}` });
    return;
  }
  const node = doc.get("metadata", true);
  if (!isMap(node)) {
    // An alias (`metadata: *shared`): its source text is elsewhere, so check the values it gave.
    for (const [key, entry] of Object.entries(value)) {
      if (typeof entry !== "string") {
        errors.push({ field: "metadata", message: `"${clip(key)}" is ${kindOf(entry)}; the spec wants string values` });
      }
    }
    return;
  }
  for (const pair of node.items) {
    const key = pair.key as Node | null;
    const label = isScalar(key) ? String(key.value) : "a key";
    const keyProblem = scalarProblem(key);
    if (keyProblem)
      errors.push({ field: "metadata", message: `key ${clip(label)} ${keyProblem}; keys must be strings` });
    const valueProblem = scalarProblem(pair.value as Node | null);
    if (valueProblem) {
      errors.push({ field: "metadata", message: `"${clip(label)}" ${valueProblem}; the spec wants string values` });
    }
  }
}

/** Why a node is not a string in every YAML parser, or undefined when it is. */
function scalarProblem(node: Node | null): string | undefined {
  if (node === null) return "is empty";
  if (!isScalar(node)) return `is ${isMap(node) ? "a mapping" : "a list"}`;
  if (typeof node.value !== "string") return `is ${kindOf(node.value)}: quote it`;
  if (node.type === "PLAIN" && node.source !== undefined) {
    const yaml11 = yaml11Kind(node.source);
    if (yaml11) return `is ${yaml11} to YAML 1.1 parsers (${clip(node.source)} unquoted): quote it`;
  }
  return undefined;
}

function yaml11Kind(source: string): string | undefined {
  let value: unknown;
  try {
    value = parse(source, { schema: "yaml-1.1", logLevel: "silent", maxAliasCount: 0 });
  } catch {
    return undefined;
  }
  if (typeof value === "string") return undefined;
  return value instanceof Date ? "a date" : kindOf(value);
}

function checkAllowedTools(value: unknown, errors: SpecIssue[], warnings: SpecIssue[]): void {
  if (typeof value === "string") return;
  if (Array.isArray(value) && value.every((tool) => typeof tool === "string")) {
    warnings.push({ field: "allowed-tools", message: "is a list; the spec wants one space-separated string" });
    return;
  }
  errors.push({ field: "allowed-tools", message: `must be a space-separated string, not ${kindOf(value)}` });
}

/** Lines of content: blank lines around the body do not count. */
function countLines(body: string): number {
  const text = body.trim();
  if (text === "") return 0;
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/** Keeps hostile values from flooding a message. */
function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
