import type { Logger } from "../../../kernel/logger.js";
import type { SkillPolicy } from "../../../skills/policy.js";
import type { SkillSource } from "../../../skills/types.js";

/**
 * The source as the policy lets it serve: unchanged when nothing is checked (local folders by
 * default, so their start costs nothing more), else wrapped so that refused skills never load.
 * The audit is imported only for a source that needs it.
 */
export async function servingChecks(source: SkillSource, policy: SkillPolicy, logger: Logger): Promise<SkillSource> {
  const block = policy.auditMode(source) === "block";
  const signers = policy.requiredSigners(source);
  if (!block && signers === undefined) return source;
  const { withServeChecks, refuseHighFindings } = await import("../../../skills/audit/blocking-source.js");
  const checks = [];
  if (signers !== undefined) checks.push((await import("../../../skills/signing/serve-check.js")).requireSignature(signers));
  if (block) checks.push(refuseHighFindings);
  return withServeChecks(source, checks, logger);
}
