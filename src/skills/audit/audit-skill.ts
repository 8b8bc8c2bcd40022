import pLimit from "p-limit";
import { errorMessage } from "../../kernel/errors.js";
import { MiB } from "../files/skill-files.js";
import { isSecretPath } from "../files/secret-files.js";
import type { SkillReader } from "../files/skill-reader.js";
import { auditFileWithEdges, type FileEdges, splitAcrossFiles } from "./audit.js";
import { isScript } from "./file-units.js";
import { isBinary } from "./text-encoding.js";
import type { AuditFinding, RuleDescription } from "./types.js";

/** Bytes of one file the audit reads; the rest is reported as not audited. */
export const MAX_AUDITED_BYTES = 2 * MiB;
/** Files of one skill the audit reads. */
export const MAX_AUDITED_FILES = 5_000;
const CONCURRENCY = 8;

export const INCOMPLETE_RULE: RuleDescription = {
  id: "audit-incomplete",
  severity: "high",
  reason: "a file or folder the audit could not read whole: what it holds is unknown",
  advice:
    "Review the file by hand, or split it below the audit's bounds; install with --allow-risky only once it has been read.",
  sources: [],
};

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
 * `onlyHigh`: the high findings alone, in the same order, with less work (what the warn mode reports).
 */
export async function auditSkill(reader: SkillReader, signal?: AbortSignal, onlyHigh = false): Promise<AuditFinding[]> {
  const findings = await allFindings(reader, signal, onlyHigh);
  return onlyHigh ? findings.filter((finding) => finding.severity === "high") : findings;
}

async function allFindings(reader: SkillReader, signal: AbortSignal | undefined, highFirst: boolean) {
  const document = await reader.readDocument(MAX_AUDITED_BYTES, signal);
  // A file read in part is audited whole: its incomplete finding's place among the rest depends on them all.
  const read = auditFileWithEdges("SKILL.md", document.bytes, true, highFirst && !document.truncated);
  const findings = read.findings;
  const edges: (FileEdges | undefined)[] = [read.edges];
  if (document.truncated)
    findings.push(incomplete("SKILL.md", `only the first ${MAX_AUDITED_BYTES} bytes were audited`));
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
    const { findings: found, edges: fileEdges } = auditFileWithEdges(
      file.path,
      content.bytes,
      false,
      highFirst && !content.truncated,
    );
    edges.push(fileEdges);
    const readAsText = !isBinary(content.bytes) || isScript(file.path, content.bytes);
    if (content.truncated && readAsText)
      found.push(incomplete(file.path, `only the first ${MAX_AUDITED_BYTES} bytes were audited`));
    return found;
  });
  findings.push(...perFile.flat());
  // A split instruction is reported at its first half's file, among that file's findings.
  const rank = new Map(["SKILL.md", ...files.map((file) => file.path)].map((path, index) => [path, index]));
  for (const split of splitAcrossFiles(edges.filter((edge) => edge !== undefined))) {
    const at = findings.findIndex(
      (f) => rank.get(f.file)! > rank.get(split.file)! || (f.file === split.file && f.line > split.line),
    );
    findings.splice(at === -1 ? findings.length : at, 0, split);
  }
  if (listing.omitted > 0 || !listing.complete) {
    findings.push(
      incomplete(
        "",
        `the folder holds more files than an audit reads (${MAX_AUDITED_FILES}); the rest were not audited`,
      ),
    );
  }
  return findings;
}
