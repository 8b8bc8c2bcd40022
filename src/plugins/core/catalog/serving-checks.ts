import type { Logger } from "../../../kernel/logger.js";
import type { SkillPolicy } from "../../../skills/policy.js";
import type { SkillSource } from "../../../skills/types.js";

/**
 * The source as the policy lets it serve: unchanged when nothing is checked (audit off, no
 * signature required), else wrapped so that refused skills never load and, in warn mode, skills
 * with high findings are named in the log once loaded. The audit is imported only for a source that needs it.
 */
export async function servingChecks(source: SkillSource, policy: SkillPolicy, logger: Logger): Promise<SkillSource> {
  const mode = policy.auditMode(source);
  const signers = policy.requiredSigners(source);
  if (mode === "off" && signers === undefined) return source;
  const { withServeChecks, refuseHighFindings } = await import("../../../skills/audit/blocking-source.js");
  const checks = [];
  if (signers !== undefined) checks.push((await import("../../../skills/signing/serve-check.js")).requireSignature(signers));
  if (mode === "block") checks.push(refuseHighFindings);
  // warn: the audit runs once the skills are served, so a large local catalog starts as before.
  const warn = mode === "warn" ? [(await import("../../../skills/audit/warn-at-load.js")).warnHighFindings(source.name, logger)] : [];
  return withServeChecks(source, checks, logger, warn);
}
