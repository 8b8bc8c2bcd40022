import { defineToken } from "../kernel/tokens.js";
import type { SkillCatalog } from "./catalog.js";
import type { Ranker, SkillSource } from "./types.js";

/** The skill domain's services. */
export const SKILL_TOKENS = {
  /** Every skill from every source, with identity and precedence resolved. */
  SkillCatalog: defineToken<SkillCatalog>("skill-catalog"),
  /** Multi-registration: each skill source, in precedence order (config order). */
  SkillSource: defineToken<SkillSource>("skill-source"),
  /** The ranker search uses: provided by a ranker plugin, else search uses the default. */
  Ranker: defineToken<Ranker>("ranker"),
  /**
   * Provided by skills-extension, which serves `skill://` files through the SDK's SkillsExtension:
   * skill-resources then adds no resource template of its own.
   */
  SkillFilesServed: defineToken<true>("skill-files-served"),
} as const;
