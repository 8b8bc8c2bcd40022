import { ToolInputError } from "../../kernel/errors.js";
import type { CatalogSkill } from "../catalog/catalog-types.js";
import type { CatalogView } from "../catalog/catalog-view.js";
import { catalogReader } from "../files/skill-reader.js";
import { describeFindings } from "./blocking-source.js";
import type { AuditFinding } from "./types.js";

/** An install refused for the audit's high findings; the CLI prints them one a line. */
export class RiskySkillError extends ToolInputError {
  static override readonly kind: string = "RiskySkillError";
  constructor(
    message: string,
    readonly findings: readonly AuditFinding[],
  ) {
    super(message);
  }
}

export interface InstallAuditOptions {
  /** Install despite high findings (--allow-risky); they are returned as warnings. */
  readonly allowRisky?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * The audit an install makes before it writes anything: a skill with a high finding is refused
 * (a RiskySkillError listing them) unless `allowRisky`; every finding otherwise comes back as a
 * warning line. One call, so any installer (install_skill, `add`, `install`) can make it.
 */
export async function auditBeforeInstall(
  catalog: CatalogView,
  skill: CatalogSkill,
  options: InstallAuditOptions = {},
): Promise<string[]> {
  // The audit's rules and tables load with the first install, not with every server that offers install_skill.
  const { auditSkill } = await import("./audit-skill.js");
  const findings = await auditSkill(catalogReader(catalog, skill), options.signal);
  const high = findings.filter((finding) => finding.severity === "high");
  if (high.length > 0 && !options.allowRisky) {
    throw new RiskySkillError(
      `refusing to install "${skill.name}": the audit found ${high.length} high-severity finding${high.length === 1 ? "" : "s"}: ` +
        `${describeFindings(high)}. Read them, then install with --allow-risky if you trust it`,
      high,
    );
  }
  return findings.map(
    (f) => `audit: ${f.severity} ${f.rule} at ${f.file || "."}${f.line > 0 ? `:${f.line}` : ""}: ${f.message}`,
  );
}
