import { auditSkill } from "./audit-skill.js";
import { describeFindings, type ServeCheck } from "./blocking-source.js";

/** A skill with a high finding is not served: the check the `block` audit mode makes. */
export const refuseHighFindings: ServeCheck = async (_skill, reader, signal) => {
  const high = (await auditSkill(reader, signal)).filter((finding) => finding.severity === "high");
  return high.length === 0 ? undefined : `blocked by the audit: ${describeFindings(high)}`;
};
