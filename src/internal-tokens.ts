import { defineToken } from "./kernel/tokens.js";
import type { HostLookup } from "./remote/address-guard.js";

/** Tokens between two built-in plugins, not part of the public API. */
export const INTERNAL_TOKENS = {
  /**
   * Provided by skills-extension, which serves `skill://` files through the SDK's SkillsExtension:
   * skill-resources, which consumes it, is then set up after it, so that the SDK's template is
   * registered first and answers every read.
   */
  SkillFilesServed: defineToken<true>("skill-files-served"),
  /** How host names resolve for the sources add_skill opens (node:dns's lookup when absent; a test's). */
  HostLookup: defineToken<HostLookup>("host-lookup"),
} as const;
