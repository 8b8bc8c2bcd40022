import { defineToken } from "../kernel/tokens.js";
import type { SkillCatalog } from "./catalog.js";
import type { SkillPolicy } from "./policy.js";
import type { Ranker, SkillSource } from "./types.js";

/** The skill domain's services. */
export const SKILL_TOKENS = {
  /** Every skill from every source, with identity and precedence resolved. */
  SkillCatalog: defineToken<SkillCatalog>("skill-catalog"),
  /** Multi-registration: each skill source, in precedence order (config order). */
  SkillSource: defineToken<SkillSource>("skill-source"),
  /** The ranker search uses: provided by a ranker plugin, else search uses the default. */
  Ranker: defineToken<Ranker>("ranker"),
  /** What may be served and installed (audit mode, signatures): the skill-policy plugin's, else the default. */
  SkillPolicy: defineToken<SkillPolicy>("skill-policy"),
  /**
   * Provided by skills-extension, which serves `skill://` files through the SDK's SkillsExtension:
   * skill-resources, which consumes it, is then set up after it, so that the SDK's template is
   * registered first and answers every read.
   */
  SkillFilesServed: defineToken<true>("skill-files-served"),
} as const;
