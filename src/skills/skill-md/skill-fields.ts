import { isRecord } from "./skill-md.js";

/**
 * What rankers read out of a skill besides its name and description. Frontmatter is untrusted
 * plain data: any field may be missing, a number, a list or a mapping, so every reader here
 * accepts anything and returns strings.
 */

/**
 * The phrases skill authors use to say when a skill applies. The three patterns follow the
 * agent-skills MCP server's trigger extraction, so the `fuse` ranker stays comparable to it: each
 * takes the text from the phrase to the end of its sentence. Bounded quantifiers keep the cost
 * linear on a hostile description.
 */
const TRIGGER_PATTERNS: readonly (readonly [string, RegExp])[] = [
  ["trigger", /\btriggers?\s+on\s+([^]{1,600}?)(?:\.\s|\.?$)/i],
  [
    "when",
    /\buse\s+(?:it\s+|this\s+skill\s+)?when(?:ever)?\s+(?:asked\s+to\s+|the\s+user\s+(?:asks?|mentions?|wants?)\s+(?:to\s+|for\s+|about\s+)?)?([^]{1,600}?)(?:\.\s|\.?$)/i,
  ],
  ["keyword", /\bkeywords?\s*[-–:]\s*([^]{1,600}?)(?:\.\s|\.?$)/i],
];

/** The trigger phrases of a description, quotes dropped and whitespace collapsed. */
export function extractTriggers(description: string): string[] {
  const triggers: string[] = [];
  // A plain substring test rules most patterns out far faster than running them.
  const lower = description.toLowerCase();
  for (const [word, pattern] of TRIGGER_PATTERNS) {
    if (!lower.includes(word)) continue;
    const match = pattern.exec(description);
    const phrase = match?.[1]?.replace(/["'`]/g, "").replace(/\s+/g, " ").trim();
    if (phrase) triggers.push(phrase);
  }
  return triggers;
}

/** Strings, and lists of strings, as text; anything else (numbers, mappings) is not a label. */
function labels(value: unknown): string[] {
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value))
    return value.flatMap((item) => (typeof item === "string" && item.trim() ? [item.trim()] : []));
  return [];
}

/**
 * The labels under `keys` in a frontmatter mapping and in its `metadata` mapping. Keys match in any
 * case: authors write `Category:` as often as `category:`, and the parser keeps keys as written.
 */
function labelsUnder(frontmatter: Readonly<Record<string, unknown>>, keys: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const collect = (record: Readonly<Record<string, unknown>>, nested: boolean) => {
    for (const key of Object.keys(record)) {
      const lower = key.toLowerCase();
      if (keys.has(lower)) found.push(...labels(record[key]));
      else if (!nested && lower === "metadata" && isRecord(record[key])) collect(record[key], true);
    }
  };
  collect(frontmatter, false);
  return found;
}

const CATEGORY = new Set(["category"]);
const TRIGGERS = new Set(["triggers"]);

/** The trigger phrases the author listed in frontmatter `triggers` (or `metadata.triggers`). */
export function declaredTriggers(frontmatter: Readonly<Record<string, unknown>>): string[] {
  return labelsUnder(frontmatter, TRIGGERS);
}

/** The skill's category, from frontmatter `category` or `metadata.category`; "" when it has none. */
export function skillCategory(frontmatter: Readonly<Record<string, unknown>>): string {
  return labelsUnder(frontmatter, CATEGORY)[0] ?? "";
}

/** Frontmatter fields that label what a skill is about, at the top level or under `metadata`. */
const LABEL_KEYS = new Set([
  "category",
  "tags",
  "keywords",
  "triggers",
  "domain",
  "frameworks",
  "tech-stack",
  "short-description",
]);

/**
 * Every label the author gave the skill: categories, tags, keywords, declared triggers, domains,
 * frameworks. Free-form metadata (authors, versions, dates, URLs) is left out because it says
 * who and when, not what.
 */
export function skillLabels(frontmatter: Readonly<Record<string, unknown>>): string[] {
  return labelsUnder(frontmatter, LABEL_KEYS);
}
