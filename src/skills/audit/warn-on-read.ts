import { errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import type { ServeCheck } from "./blocking-source.js";
import { findingPlace } from "./render.js";
import type { AuditFinding } from "./types.js";

/** Rules named in a warning; the rest are counted. */
const NAMED_RULES = 3;

/**
 * The `warn` audit mode's check, made when a skill is first read: a skill with high findings is
 * served, and one warning per skill says so, summarised by rule; said once (a read after a reload
 * that finds the same says nothing). A skill the audit cannot read is served as well: warn never refuses.
 */
export function warnHighFindings(source: string, logger: Logger): ServeCheck {
  const said = new Set<string>();
  return async (skill, reader, signal) => {
    let high: AuditFinding[];
    try {
      // The audit's rules and tables load with the first skill read, not with every server start.
      const { auditSkill } = await import("./audit-skill.js");
      high = await auditSkill(reader, signal, true);
    } catch (error) {
      if (signal.aborted) throw error;
      logger.debug(`source "${source}": ${skill.name} could not be audited: ${errorMessage(error)}`);
      return undefined;
    }
    if (high.length === 0) return undefined;
    const line = `source "${source}": ${skill.name} (${skill.path || "."}) has ${high.length} high audit finding${high.length === 1 ? "" : "s"}: ${summarise(high)}; served (audit mode warn; audit_skill or skills-kernel audit lists them)`;
    if (!said.has(line)) logger.warn(line);
    said.add(line);
    return undefined;
  };
}

/** `pipe-to-shell at setup.sh:3 (2 more), …`: each rule once, at its first place. */
function summarise(findings: readonly AuditFinding[]): string {
  const byRule = new Map<string, AuditFinding[]>();
  for (const finding of findings) byRule.set(finding.rule, [...(byRule.get(finding.rule) ?? []), finding]);
  const rules = [...byRule.entries()].map(
    ([rule, found]) => `${rule} at ${findingPlace(found[0]!)}${found.length > 1 ? ` (${found.length - 1} more)` : ""}`,
  );
  const more = rules.length - NAMED_RULES;
  return rules.slice(0, NAMED_RULES).join(", ") + (more > 0 ? ` and ${more} more rule${more === 1 ? "" : "s"}` : "");
}
