import { whenToUse } from "../skill-md/claude-fields.js";
import { declaredTriggers, extractTriggers } from "../skill-md/skill-fields.js";

/** What a skill says of itself that an agent's request would echo. */
export interface PhraseSource {
  readonly description: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/** The most phrases tried per skill: its first sentence and five of its triggers. */
export const MAX_PHRASES = 6;
/** A phrase is a request's worth of words, not a paragraph. */
const MAX_PHRASE_WORDS = 12;

/**
 * The requests a skill's author says it is for, as an agent would search for them: the first
 * sentence of its description (what it does), then each phrase of its triggers ("Use when …",
 * "Triggers on …", `when_to_use`, a `triggers` list), split at commas, semicolons, dashes, "or"
 * and quotes, then its next two sentences. At most MAX_PHRASES, each of two to MAX_PHRASE_WORDS
 * words, no two alike.
 */
export function ownPhrases(skill: PhraseSource): string[] {
  const when = whenToUse(skill);
  const triggers = [
    ...extractTriggers(skill.description),
    ...(USED_WHEN.exec(skill.description)?.slice(1, 2) ?? []),
    ...(when ? extractTriggers(`Use when ${when}`) : []),
    ...declaredTriggers(skill.frontmatter),
  ].flatMap((text) => text.split(/[,;:"“”()—–]|\s+or\s+|\s+e\.g\.\s+/i));
  // A description that opens with when it applies has its "what" in its triggers already; one
  // with few triggers is tried with its next sentences too.
  const [first = "", ...rest] = sentences(skill.description);
  const more = rest.filter((sentence) => !OPENS_WITH_WHEN.test(sentence.trim())).slice(0, 2);
  const phrases = [...(OPENS_WITH_WHEN.test(first) ? [] : [first]), ...triggers, ...more];
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of phrases) {
    const phrase = tidy(raw);
    const words = phrase.split(" ");
    if (words.length < 2 || seen.has(phrase.toLowerCase())) continue;
    seen.add(phrase.toLowerCase());
    kept.push(words.slice(0, MAX_PHRASE_WORDS).join(" "));
    if (kept.length === MAX_PHRASES) break;
  }
  return kept;
}

/**
 * "This skill should be used when …", which the shared trigger patterns (fuse's, kept comparable
 * with another server's) do not take; bounded like them.
 */
const USED_WHEN =
  /\bused\s+when(?:ever)?\s+(?:the\s+user\s+(?:asks?|mentions?|wants?)\s+(?:to\s+|for\s+|about\s+)?)?([^]{1,600}?)(?:\.\s|\.?$)/i;
const OPENS_WITH_WHEN = /^(?:this\s+skill\s+should\s+be\s+used|use\s+(?:this\s+skill\s+|it\s+)?when|when\b)/i;

/**
 * Its sentences: each ends at a full stop before a space and a capital (or the end), not after a
 * one-letter word ("U.S. Treasury", "e.g. Word").
 */
function sentences(text: string): string[] {
  return text.split(/(?<!\b\p{L})\.(?:\s+(?=[\p{Lu}"“(])|\s*$)/u).filter((sentence) => sentence.trim() !== "");
}

/** Whitespace collapsed, quotes and leading joiners ("and", "to", "when you need to") dropped. */
function tidy(text: string): string {
  return text
    .replace(/[`'‘’]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:and|to|when|if|for|you|need|want|needs|wants|asked|asks|the user)\b\s*/gi, "")
    .replace(/^(?:to|you|need|want|needs|wants|asks?|asked)\s+/i, "")
    .replace(/[.!?]+$/, "")
    .trim();
}
