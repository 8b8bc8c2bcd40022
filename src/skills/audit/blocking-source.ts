import pLimit from "p-limit";
import type { Logger } from "../../kernel/logger.js";
import { errorMessage } from "../../kernel/errors.js";
import type { LoadOptions, Diagnostic, SkillSource, SourceSkill, SourceSnapshot } from "../types.js";
import { auditSkill, type SkillReader } from "./audit-skill.js";
import { findingPlace } from "./render.js";
import type { AuditFinding } from "./types.js";

/** Skills of one source audited at once while it loads. */
const CONCURRENCY = 4;

/** Why a skill may not be served ("blocked by the audit: …"), or undefined when it may. */
export type ServeCheck = (skill: SourceSkill, reader: SkillReader, signal: AbortSignal) => Promise<string | undefined>;

/** A skill with a high finding is not served: the check the `block` audit mode makes. */
export const refuseHighFindings: ServeCheck = async (_skill, reader, signal) => {
  const high = (await auditSkill(reader, signal)).filter((finding) => finding.severity === "high");
  return high.length === 0 ? undefined : `blocked by the audit: ${describeFindings(high)}`;
};

/** Findings in one line: rule, place and message of each, for a diagnostic or an error. */
export function describeFindings(findings: readonly AuditFinding[]): string {
  return findings.map((f) => `${f.rule} at ${findingPlace(f)} (${f.message})`).join("; ");
}

/** A reader over one skill of a source, by its path. */
export function sourceReader(source: SkillSource, path: string): SkillReader {
  return {
    readDocument: (maxBytes, signal) => source.readDocument(path, maxBytes, signal),
    listFiles: (limit, signal) => source.listFiles(path, limit, signal),
    readFile: (file, maxBytes, signal) => source.readFile(path, file, maxBytes, signal),
  };
}

/**
 * `source` with every skill that fails a check left out of its snapshots, each replaced by an
 * error diagnostic saying why (the rule and where): nothing in the catalog then serves it, by
 * any tool, resource or extension method. A skill the check cannot read is left out too.
 * `afterLoad` checks run once a snapshot is served, in the background (aborted with the load's
 * signal), and only report: they never hold up the catalog, nor leave a skill out.
 */
export function withServeChecks(source: SkillSource, checks: readonly ServeCheck[], logger: Logger, afterLoad: readonly ServeCheck[] = []): SkillSource {
  // Each refusal is logged once, not at every reload.
  const logged = new Set<string>();
  const report = (skills: readonly SourceSkill[], signal: AbortSignal) =>
    pLimit(CONCURRENCY)
      .map(skills, async (skill) => {
        for (const check of afterLoad) await check(skill, sourceReader(source, skill.path), signal);
      })
      .catch((error: unknown) => {
      if (!signal.aborted) logger.debug(`source "${source.name}": the checks after load stopped: ${errorMessage(error)}`);
    });
  const load = async (signal: AbortSignal, options?: LoadOptions): Promise<SourceSnapshot> => {
    const snapshot = await (options ? source.load(signal, options) : source.load(signal));
    const verdicts = await pLimit(CONCURRENCY).map(snapshot.skills, async (skill) => {
      const reader = sourceReader(source, skill.path);
      for (const check of checks) {
        const verdict = await check(skill, reader, signal).catch((error: unknown) => {
          if (signal.aborted) throw error;
          return `not served: it could not be checked (${errorMessage(error)})`;
        });
        if (verdict !== undefined) return verdict;
      }
      return undefined;
    });
    const refused: Diagnostic[] = [];
    const skills = snapshot.skills.filter((skill, index) => {
      const why = verdicts[index];
      if (why === undefined) return true;
      refused.push({ severity: "error", source: source.name, path: skill.path, code: "policy-refused", message: `${skill.name}: ${why}` });
      const line = `source "${source.name}": ${skill.name} (${skill.path || "."}) ${why}`;
      if (!logged.has(line)) logger.warn(line);
      logged.add(line);
      return false;
    });
    if (afterLoad.length > 0) void report(skills, signal);
    return { skills, diagnostics: [...snapshot.diagnostics, ...refused] };
  };
  return {
    name: source.name,
    description: source.description,
    ...(source.capabilities && { capabilities: source.capabilities }),
    load,
    readDocument: (path, maxBytes, signal) => source.readDocument(path, maxBytes, signal),
    listFiles: (path, limit, signal) => source.listFiles(path, limit, signal),
    readFile: (path, file, maxBytes, signal) => source.readFile(path, file, maxBytes, signal),
    ...(source.search && { search: source.search.bind(source) }),
    ...(source.watch && { watch: source.watch.bind(source) }),
    ...(source.freshness && { freshness: source.freshness }),
  };
}
