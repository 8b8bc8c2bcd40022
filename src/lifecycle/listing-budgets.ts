/**
 * How much of its context a host (an agent) gives the listing of the skills it loads from its own
 * folders, and what it does with the skills past that, as its documentation, its source or its
 * maintainers' words say, each with its sources; `doctor` measures every agent's folders against
 * these. An agent not named here has no documented budget: doctor says so rather than guess.
 */
export interface ListingBudget {
  /** The agent ids it applies to (src/lifecycle/agents-table.ts). */
  readonly agents: readonly string[];
  /** Characters of listing, as the host counts them by default. */
  readonly chars: number;
  /** How the figure comes about, and what changes it. */
  readonly basis: string;
  /** An environment variable that, set to a number, replaces `chars` (as the host reads it). */
  readonly charsFromEnv?: string;
  /** The most skills listed, whatever their size. */
  readonly maxSkills?: number;
  /** Each entry's description (with `when_to_use`, where the host reads it) is cut to this first. */
  readonly descriptionChars?: number;
  /**
   * How one skill's entry is written, for its size: `line` is `- name: description`; `line-with-path`
   * adds ` (file: <SKILL.md path>)`; `xml` is `<skill>` with `<name>`, `<description>` and
   * `<location>` elements, 97 characters besides the three fields (65 without the description).
   */
  readonly entry: "line" | "line-with-path" | "xml";
  /**
   * What the host does when the listing is over budget:
   * `least-used-descriptions`: every name stays; descriptions go, the skills invoked least first.
   * `cut-descriptions-then-skills`: descriptions are cut evenly, then skills left out.
   * `names-then-last-alphabetically`: sorted by name, descriptions all go, then the last names.
   */
  readonly overflow: "least-used-descriptions" | "cut-descriptions-then-skills" | "names-then-last-alphabetically";
  readonly sources: readonly string[];
}

export const LISTING_BUDGETS: readonly ListingBudget[] = [
  {
    agents: ["claude-code"],
    chars: 8_000,
    basis:
      "1% (skillListingBudgetFraction) of a 200,000-token context window at 4 characters a token; " +
      "SLASH_COMMAND_TOOL_CHAR_BUDGET or skillListingBudgetFraction in settings.json change it",
    charsFromEnv: "SLASH_COMMAND_TOOL_CHAR_BUDGET",
    descriptionChars: 1_536,
    entry: "line",
    overflow: "least-used-descriptions",
    sources: [
      "https://code.claude.com/docs/en/skills#skill-descriptions-are-cut-short",
      "https://github.com/anthropics/claude-code/issues/64606",
      "https://github.com/anthropics/claude-code/issues/13343",
      "https://github.com/anthropics/claude-code/issues/12782",
    ],
  },
  {
    agents: ["codex"],
    chars: 8_000,
    basis:
      "Codex's figure when it does not know the model's context window; knowing it, 2% of the window, " +
      "which it logs as budget_limit",
    entry: "line-with-path",
    overflow: "cut-descriptions-then-skills",
    sources: [
      "https://github.com/openai/codex/pull/18213",
      "https://github.com/openai/codex/issues/24299",
      "https://github.com/openai/codex/issues/19679",
    ],
  },
  {
    agents: ["openclaw"],
    chars: 18_000,
    basis: "skills.limits.maxSkillsPromptChars (and maxSkillsInPrompt, 150) unless configured",
    maxSkills: 150,
    entry: "xml",
    overflow: "names-then-last-alphabetically",
    sources: [
      "https://docs.openclaw.ai/tools/skills",
      "https://github.com/openclaw/openclaw/blob/main/src/agents/skills/workspace.ts",
    ],
  },
];

/**
 * Hosts known to cut their skill listing without documenting by how much: doctor names what was
 * seen, and says the budget is unknown.
 */
export const UNDOCUMENTED_CUTS: Readonly<Record<string, string>> = {
  "github-copilot": "https://github.com/github/copilot-cli/issues/1464",
};
