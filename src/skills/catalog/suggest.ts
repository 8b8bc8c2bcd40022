import { distance } from "fastest-levenshtein";

/** Close ids an unknown-skill message suggests at most. */
const MAX_SUGGESTIONS = 3;
/** Edit distance is quadratic in length: longer input is no typo of a skill id anyway. */
const MAX_SUGGESTED_FOR_CHARS = 100;

/**
 * Up to 3 ids close to `wanted`, closest first: a typo of the whole id (a small edit distance), or
 * a typo of its leading words (`pdff` suggests `pdf-tools`, through "pdf"). Leading words are
 * cut at hyphens, so a short input never matches the first letters of an unrelated long id
 * (`nope` does not suggest `nodejs-backend-patterns`).
 */
export function suggest(wanted: string, ids: readonly string[]): string[] {
  if (wanted.length > MAX_SUGGESTED_FOR_CHARS) return [];
  const query = wanted.toLowerCase();
  const typoBudget = Math.max(2, Math.floor(query.length / 3));
  const scored = new Map<string, number>();
  for (const id of ids) {
    const candidate = id.toLowerCase();
    const edits = distance(query, candidate);
    const wordEdits =
      query.length >= 3 ? Math.min(...leadingWords(candidate).map((words) => distance(query, words))) : Infinity;
    if (edits <= typoBudget || wordEdits <= 1) scored.set(id, Math.min(edits, wordEdits));
  }
  return [...scored]
    .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_SUGGESTIONS)
    .map(([id]) => id);
}

/** "pdf-tools-x" → ["pdf", "pdf-tools"]: every run of its leading hyphen-separated words, the whole id excluded. */
function leadingWords(id: string): string[] {
  const parts = id.split("-");
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join("-"));
}
