import { MAX_FILE_DEPTH } from "../../../skills/files/folder-rules.js";
import { isRecord } from "../../../skills/skill-md/skill-md.js";
import { MAX_DESCRIPTION_CHARS, NAME_PATTERN } from "../../../skills/skill-md/skill-md.js";
import { checkRelativePath } from "../../../skills/files/skill-files.js";
import type { Diagnostic } from "../../../skills/types.js";

export type CatalogFormat = "agent-skills" | "well-known";

/** One skill a catalog lists, checked. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  /** The skill folder, relative to the files' base URL. */
  readonly path: string;
  readonly category?: string;
  /** Paths relative to the skill folder, SKILL.md among them. */
  readonly files: readonly string[];
  /** When the catalog gives one: the skill's files never change under it, so they are kept for good. */
  readonly contentHash?: string;
}

export interface ParsedCatalog {
  readonly format: CatalogFormat;
  readonly entries: readonly CatalogEntry[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads a catalog document in either shape: the agent-skills MCP server's registry
 * (`{ skills: [{ name, description, category, path, files, contentHash? }] }`, files under a base
 * URL by path) or the RFC 8615 well-known index the skills CLI reads
 * (`{ skills: [{ name, description, files }] }`, files under `<index folder>/<name>/`). Every
 * entry is checked as untrusted input: a bad one is a diagnostic, never a crash.
 */
/** A name that is no path: no separator, no control character, no leading dot ("..", ".hidden"). */
const SAFE_NAME = /^[^./\\\u0000-\u001f\u007f][^/\\\u0000-\u001f\u007f]*$/;

export function parseCatalog(
  text: string,
  format: CatalogFormat | "auto",
  source: string,
  maxSkills: number,
): ParsedCatalog {
  return parseCatalogData(parseJson(text), format, source, maxSkills);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`the catalog is not JSON: ${(error as Error).message}`);
  }
}

/** parseCatalog over a document already parsed. */
export function parseCatalogData(
  data: unknown,
  format: CatalogFormat | "auto",
  source: string,
  maxSkills: number,
): ParsedCatalog {
  const skills = isRecord(data) ? data.skills : undefined;
  if (!Array.isArray(skills)) throw new Error('the catalog has no "skills" array');
  const shape: CatalogFormat =
    format !== "auto"
      ? format
      : skills.some((entry) => isRecord(entry) && typeof entry.path === "string")
        ? "agent-skills"
        : "well-known";
  const diagnostics: Diagnostic[] = [];
  const entries: CatalogEntry[] = [];
  const seen = new Set<string>();
  const problem = (index: number, path: string, message: string, severity: Diagnostic["severity"] = "error") =>
    diagnostics.push({ severity, source, path, code: "invalid-entry", message: `skills[${index}]: ${message}` });
  for (const [index, entry] of skills.entries()) {
    if (entries.length >= maxSkills) {
      diagnostics.push({
        severity: "error",
        source,
        path: "",
        code: "scan-limit",
        message: `the catalog lists ${skills.length} skills; only the first ${maxSkills} are served (maxSkills)`,
      });
      break;
    }
    if (!isRecord(entry)) {
      problem(index, "", "is not an object");
      continue;
    }
    const { name, description } = entry;
    if (typeof name !== "string" || name === "" || name.length > 256) {
      problem(index, "", "has no usable name");
      continue;
    }
    // Agents and installs use the name as an id and a folder name: never a path.
    if (!SAFE_NAME.test(name)) {
      problem(
        index,
        "",
        `${JSON.stringify(name.slice(0, 64))} is not a usable skill name (a path separator, a control character or a leading dot)`,
      );
      continue;
    }
    const path = shape === "agent-skills" ? entry.path : name;
    if (typeof path !== "string") {
      problem(index, "", `"${name.slice(0, 64)}" has no path`);
      continue;
    }
    // A well-known name is a URL segment; the spec's name rules keep it one.
    if (shape === "well-known" && !NAME_PATTERN.test(name)) {
      problem(
        index,
        "",
        `"${name.slice(0, 64)}" is not a valid skill name (lowercase letters, digits and single hyphens)`,
      );
      continue;
    }
    const pathProblem =
      checkRelativePath(path) ?? (path.split("/").length > MAX_FILE_DEPTH + 1 ? "the path is too deep" : undefined);
    if (pathProblem) {
      problem(index, "", `"${name.slice(0, 64)}": ${pathProblem}`);
      continue;
    }
    if (typeof description !== "string" || description.trim() === "") {
      problem(index, path, `"${name}" has no description`);
      continue;
    }
    if (seen.has(path)) {
      problem(index, path, `a skill at "${path}" is listed already`);
      continue;
    }
    seen.add(path);
    const files: string[] = [];
    for (const file of Array.isArray(entry.files) ? entry.files : []) {
      const fileProblem = typeof file === "string" ? checkRelativePath(file) : "it is not a string";
      if (fileProblem === undefined) files.push(file as string);
      else problem(index, path, `a file was left out: ${fileProblem}`, "warning");
    }
    if (!files.some((file) => file.toLowerCase() === "skill.md")) files.push("SKILL.md");
    if ([...description].length > MAX_DESCRIPTION_CHARS) {
      problem(
        index,
        path,
        `the description is over the ${MAX_DESCRIPTION_CHARS} characters the spec allows`,
        "warning",
      );
    }
    entries.push({
      name,
      description: description.trimEnd(),
      path,
      category: typeof entry.category === "string" ? entry.category : undefined,
      files,
      contentHash:
        typeof entry.contentHash === "string" && /^[A-Za-z0-9:_+/=.-]{1,200}$/.test(entry.contentHash)
          ? entry.contentHash
          : undefined,
    });
  }
  return { format: shape, entries, diagnostics };
}
