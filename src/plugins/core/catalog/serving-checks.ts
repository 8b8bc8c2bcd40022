import type { Logger } from "../../../kernel/logger.js";
import type { SkillPolicy } from "../../../skills/policy.js";
import type { CatalogSource } from "../../../skills/types.js";

/**
 * The source as the policy lets it serve: unchanged when nothing is checked (audit off, no
 * signature required), else wrapped so that refused skills never load and, in warn mode, a skill
 * with high findings is named in the log when first read. The audit is imported only for a source that needs it.
 */
export async function servingChecks(
  source: CatalogSource,
  policy: SkillPolicy,
  logger: Logger,
): Promise<CatalogSource> {
  const mode = policy.auditMode(source);
  const signers = policy.requiredSigners(source);
  if (mode === "off" && signers === undefined) return source;
  const { withServeChecks } = await import("../../../skills/audit/blocking-source.js");
  const checks = [];
  if (signers !== undefined)
    checks.push((await import("../../../skills/signing/serve-check.js")).requireSignature(signers));
  if (mode === "block") checks.push((await import("../../../skills/audit/refuse-high-findings.js")).refuseHighFindings);
  // warn: a skill is audited when first read, so a large local catalog is never read whole for it.
  const warn =
    mode === "warn"
      ? [(await import("../../../skills/audit/warn-on-read.js")).warnHighFindings(source.name, logger)]
      : [];
  return withServeChecks(source, checks, logger, warn);
}
