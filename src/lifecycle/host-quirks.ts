/**
 * What a host (an agent) is known to do with installed skills that keeps it from loading one, as
 * users reported it, each with its source; `installed --check` tests every install against these.
 */
export interface HostQuirk {
  /** The agent ids it applies to. */
  readonly agents: readonly string[];
  /**
   * `linked-skill`: a skill folder that is a symbolic link is not loaded.
   * `linked-skills-folder`: a skills folder that is itself a symbolic link is not read.
   */
  readonly kind: "linked-skill" | "linked-skills-folder";
  readonly source: string;
}

export const HOST_QUIRKS: readonly HostQuirk[] = [
  { agents: ["cursor"], kind: "linked-skill", source: "https://github.com/vercel-labs/skills/issues/105" },
  { agents: ["codex"], kind: "linked-skills-folder", source: "https://github.com/openai/codex/issues/11314" },
];

/** The frontmatter rules every host applies, from the Agent Skills specification. */
export const SPEC_SOURCE = "https://agentskills.io/specification";
