import { extractFrontmatter, isRecord, parseFrontmatter } from "../../../skills/skill-md/skill-md.js";
import { errorMessage } from "../../../kernel/errors.js";

/** A frontmatter this large is no frontmatter a host would load either. */
const MAX_FRONTMATTER_BYTES = 64 * 1024;

/**
 * What the catalog accepts with a warning but a host's YAML parser would read differently (or not
 * at all): an entry's frontmatter must be identical to what the host parses from the file.
 */
const DIVERGING = new Set(["yaml-repaired", "yaml-warning", "duplicate-key", "unsafe-key"]);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export type VerbatimFrontmatter = { readonly frontmatter: Record<string, unknown> } | { readonly problem: string };

/**
 * A SKILL.md's frontmatter as the JSON object a host gets by parsing the same bytes: parsed
 * afresh from exactly the bytes whose digest the entry carries (never the catalog's copy, which
 * may be of an earlier version, or lenient), or why it cannot be given verbatim.
 */
export function verbatimFrontmatter(bytes: Uint8Array): VerbatimFrontmatter {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { problem: "its SKILL.md is not valid UTF-8" };
  }
  const block = extractFrontmatter(text, { maxFrontmatterBytes: MAX_FRONTMATTER_BYTES, truncated: false });
  if ("code" in block) return { problem: block.message };
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(block.yaml);
  } catch (error) {
    return { problem: `its frontmatter cannot be parsed: ${errorMessage(error)}` };
  }
  if ("code" in parsed) return { problem: `its frontmatter cannot be parsed: ${parsed.message}` };
  const diverging = parsed.warnings.find((warning) => DIVERGING.has(warning.code));
  if (diverging) return { problem: `its frontmatter would not parse the same for a host: ${diverging.message}` };
  const data = parsed.data;
  if (!isRecord(data)) return { problem: "its frontmatter is not a mapping" };
  for (const field of ["name", "description"]) {
    if (typeof data[field] !== "string") return { problem: `its frontmatter has no ${field} string` };
  }
  if (!isJson(data)) return { problem: "its frontmatter holds a value JSON cannot carry (.inf or .nan)" };
  return { frontmatter: data };
}

/** True when JSON carries the value unchanged: YAML numbers include .inf and .nan, JSON's do not. */
function isJson(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (value !== null && typeof value === "object") return Object.values(value).every(isJson);
  return true;
}
