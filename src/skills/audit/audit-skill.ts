import pLimit from "p-limit";
import { errorMessage } from "../../kernel/errors.js";
import { MiB } from "../files/skill-files.js";
import { isSecretPath } from "../files/secret-files.js";
import type { CatalogSkill } from "../catalog/catalog-types.js";
import type { CatalogView } from "../catalog/catalog-view.js";
import type { SkillFileContent, SkillFileListing } from "../types.js";
import { auditFile, isBinary } from "./audit.js";
import { isScript } from "./file-units.js";
import type { AuditFinding } from "./types.js";

/** One skill's files, however they are reached (a source, the catalog, a folder on disk). */
export interface SkillReader {
  readDocument(maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  listFiles(limit: number, signal?: AbortSignal): Promise<SkillFileListing>;
  readFile(path: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
}

/** Bytes of one file the audit reads; the rest is reported as not audited. */
export const MAX_AUDITED_BYTES = 2 * MiB;
/** Files of one skill the audit reads. */
export const MAX_AUDITED_FILES = 5_000;
const CONCURRENCY = 8;

/** A reader over one skill of a catalog. */
export function catalogReader(catalog: CatalogView, skill: CatalogSkill): SkillReader {
  return {
    readDocument: (maxBytes, signal) => catalog.readDocument(skill, maxBytes, signal),
    listFiles: (limit, signal) => catalog.listFiles(skill, limit, signal),
    readFile: (path, maxBytes, signal) => catalog.readFile(skill, path, maxBytes, signal),
  };
}

export const INCOMPLETE_REASON = "a file or folder the audit could not read whole: what it holds is unknown";

/**
 * What the audit could not read is not passed: high, so `add` and `install` refuse it unless
 * --allow-risky, and a blocking source does not serve it.
 */
function incomplete(file: string, message: string): AuditFinding {
  return { rule: "audit-incomplete", severity: "high", file, line: 0, message };
}

/**
 * Every finding in a skill: its SKILL.md, then each file it would serve (files named like
 * credentials are never served, so never read). Findings come sorted by file, SKILL.md first.
 * A file too large, or a folder too large to list, is audited as far as read and says so (a
 * binary file that is not a script is judged by its first bytes, so its size hides nothing).
 */
export async function auditSkill(reader: SkillReader, signal?: AbortSignal): Promise<AuditFinding[]> {
  const document = await reader.readDocument(MAX_AUDITED_BYTES, signal);
  const findings = auditFile("SKILL.md", document.bytes, true);
  if (document.truncated) findings.push(incomplete("SKILL.md", `only the first ${MAX_AUDITED_BYTES} bytes were audited`));
  const listing = await reader.listFiles(MAX_AUDITED_FILES, signal);
  const files = listing.files.filter((file) => !isSecretPath(file.path) && file.path.toLowerCase() !== "skill.md");
  const perFile = await pLimit(CONCURRENCY).map(files, async (file): Promise<AuditFinding[]> => {
    signal?.throwIfAborted();
    // A file the source cannot read is not served either: say so, and audit the rest.
    const content = await reader.readFile(file.path, MAX_AUDITED_BYTES, signal).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return errorMessage(error);
    });
    if (typeof content === "string") return [incomplete(file.path, `could not be read: ${content}`)];
    const found = auditFile(file.path, content.bytes);
    const readAsText = !isBinary(content.bytes) || isScript(file.path, content.bytes);
    if (content.truncated && readAsText) found.push(incomplete(file.path, `only the first ${MAX_AUDITED_BYTES} bytes were audited`));
    return found;
  });
  findings.push(...perFile.flat());
  if (listing.omitted > 0 || !listing.complete) {
    findings.push(incomplete("", `the folder holds more files than an audit reads (${MAX_AUDITED_FILES}); the rest were not audited`));
  }
  return findings;
}
