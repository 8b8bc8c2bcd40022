import { defineToken } from "../kernel/tokens.js";
import type { SkillCatalog } from "./catalog.js";
import type { SkillPolicy } from "./policy.js";
import type { Ranker, SkillSource } from "./types.js";
import type { Visibility } from "./visibility.js";

/** Who may see one source's skills, contributed by the plugin that contributes the source. */
export interface SourceVisibility {
  /** The source's name. */
  readonly name: string;
  readonly visibleTo: Visibility;
}

/** The skill domain's services. */
export const SKILL_TOKENS = {
  /**
   * Every skill of every source, whoever the caller: for what loads or watches the catalog, or
   * reports on all of it (readiness, metrics). What answers a caller reads `catalog` from its
   * context instead, already scoped to that caller. Named apart from the old `skill-catalog`, so
   * a plugin written against that fails to boot rather than show hidden skills.
   */
  WholeCatalog: defineToken<SkillCatalog>("whole-catalog"),
  /** Multi-registration: each skill source, in precedence order (config order). */
  SkillSource: defineToken<SkillSource>("skill-source"),
  /** Multi-registration: who may see a source (fs roots, git repositories, catalogs with `visibleTo`). */
  SourceVisibility: defineToken<SourceVisibility>("source-visibility"),
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
