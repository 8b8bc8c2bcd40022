import { resolve } from "node:path";
import { homedir } from "node:os";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { expandHome } from "../../../skills/files/paths.js";
import { AUDIT_MODES, defaultAuditMode, type SkillPolicy } from "../../../skills/policy.js";
import { TOKENS } from "../../../tokens.js";

export const skillPolicyOptionsSchema = z.strictObject({
  /** Audit mode by source name, "*" for every source not named; else warn for local folders, block for remote ones. */
  audit: z.record(z.string(), z.enum(AUDIT_MODES as [string, ...string[]])).default({}),
  /** ssh-keygen's allowed signers file: read_skill reports signers against it; requireSigned enforces it. */
  allowedSigners: z.string().min(1).optional(),
  /** Serve and install only skills signed by an allowed signer: true for every source, or these sources. */
  requireSigned: z.union([z.boolean(), z.array(z.string())]).default(false),
});

/**
 * What may be served and installed, per source: the audit mode (off, warn, block) and whether a
 * signature by an allowed signer is required. The catalog holds every source to it.
 */
export default definePlugin({
  name: "skill-policy",
  provides: [TOKENS.SkillPolicy],
  options: skillPolicyOptionsSchema,
  setup(ctx, options) {
    const allowedSigners =
      options.allowedSigners && resolve(ctx.baseDir, expandHome(options.allowedSigners, homedir()));
    if (options.requireSigned !== false && !allowedSigners) {
      throw new Error("requireSigned needs allowedSigners (the allowed signers file to check signatures against)");
    }
    const audit = new Map(Object.entries(options.audit)) as Map<string, (typeof AUDIT_MODES)[number]>;
    const policy: SkillPolicy = {
      auditMode: (source) => audit.get(source.name) ?? audit.get("*") ?? defaultAuditMode(source),
      requiredSigners: (source) =>
        options.requireSigned === true ||
        (Array.isArray(options.requireSigned) && options.requireSigned.includes(source.name))
          ? allowedSigners
          : undefined,
      ...(allowedSigners && { allowedSigners }),
    };
    ctx.provide(TOKENS.SkillPolicy, policy);
  },
});
