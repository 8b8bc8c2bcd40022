import { isRecord, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, NAME_PATTERN } from "../skill-md/skill-md.js";
import { DISCOVERY_SCHEMA, type DiscoveryEntryType } from "./discovery.js";
import type { Diagnostic } from "../types.js";

/** One entry of a 0.2.0 index, checked: its artifact's absolute url and the digest its bytes must have. */
export interface DiscoveryArtifactEntry {
  readonly name: string;
  readonly description: string;
  readonly type: DiscoveryEntryType;
  /** Resolved against the index's own URL (RFC 3986: relative, path-absolute or absolute). */
  readonly url: string;
  readonly digest: string;
}

const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** True for a document that declares the 0.2.0 discovery schema. */
export function isDiscoveryIndex(data: unknown): boolean {
  return isRecord(data) && data.$schema === DISCOVERY_SCHEMA;
}

/**
 * The entries of a 0.2.0 discovery index (agentskills.io, "Well-Known URI"), each checked as
 * untrusted input: a bad entry is a diagnostic naming it, never a crash, and the others load.
 */
export function parseDiscoveryIndex(
  data: Record<string, unknown>,
  indexUrl: string,
  source: string,
  maxSkills: number,
) {
  const skills = Array.isArray(data.skills) ? data.skills : [];
  const entries: DiscoveryArtifactEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const problem = (index: number, path: string, message: string) =>
    diagnostics.push({
      severity: "error",
      source,
      path,
      code: "invalid-entry",
      message: `skills[${index}]: ${message}`,
    });
  for (const [index, entry] of skills.entries()) {
    if (entries.length >= maxSkills) {
      diagnostics.push({
        severity: "error",
        source,
        path: "",
        code: "scan-limit",
        message: `the index lists ${skills.length} skills; only the first ${maxSkills} are served (maxSkills)`,
      });
      break;
    }
    if (!isRecord(entry)) {
      problem(index, "", "is not an object");
      continue;
    }
    const { name, description, type, url, digest } = entry;
    if (typeof name !== "string" || name.length > MAX_NAME_CHARS || !NAME_PATTERN.test(name)) {
      problem(
        index,
        "",
        `${JSON.stringify(String(name).slice(0, 64))} is not a valid skill name (lowercase letters, digits and single hyphens)`,
      );
      continue;
    }
    if (
      typeof description !== "string" ||
      description.trim() === "" ||
      [...description].length > MAX_DESCRIPTION_CHARS
    ) {
      problem(index, name, `"${name}" has no description, or one over ${MAX_DESCRIPTION_CHARS} characters`);
      continue;
    }
    if (type !== "skill-md" && type !== "archive") {
      problem(
        index,
        name,
        `"${name}" has type ${JSON.stringify(String(type).slice(0, 40))}; 0.2.0 knows "skill-md" and "archive"`,
      );
      continue;
    }
    if (typeof digest !== "string" || !DIGEST.test(digest)) {
      problem(index, name, `"${name}" has no sha256:<64 hex> digest`);
      continue;
    }
    let resolved: URL;
    try {
      if (typeof url !== "string" || url === "") throw new Error("no url");
      resolved = new URL(url, indexUrl);
    } catch {
      problem(index, name, `"${name}" has no usable url`);
      continue;
    }
    if (resolved.protocol !== "https:" && resolved.protocol !== "http:") {
      problem(index, name, `"${name}": its url is not http(s)`);
      continue;
    }
    if (seen.has(name)) {
      problem(index, name, `a skill named "${name}" is listed already`);
      continue;
    }
    seen.add(name);
    entries.push({ name, description: description.trimEnd(), type, url: resolved.href, digest });
  }
  return { entries, diagnostics };
}
