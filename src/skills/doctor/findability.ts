import type { CatalogSkill } from "../catalog/catalog-types.js";
import type { Ranker } from "../types.js";
import { ownPhrases } from "./phrases.js";

/** How deep a skill is looked for in the answer to one of its phrases: search_skills' largest page. */
export const SEARCH_DEPTH = 10;

/** One of a skill's own phrases, searched for as an agent would. */
export interface PhraseResult {
  readonly phrase: string;
  /** Where the skill came, 1 first; undefined past SEARCH_DEPTH. */
  readonly rank: number | undefined;
  /** The skills that came before it (ids), best first, at most three. */
  readonly above: readonly string[];
}

/** Another skill that came before this one on some of its own phrases. */
export interface Outranking {
  readonly id: string;
  readonly phrases: readonly string[];
}

export interface Findability {
  readonly skill: CatalogSkill;
  readonly phrases: readonly PhraseResult[];
  /**
   * 0 to 100: the mean over its phrases of 1/rank (0 when not found), so 100 is first on every
   * phrase, 50 second on each; undefined for a skill with no phrase to try.
   */
  readonly score: number | undefined;
  /** Each skill that came before it on a phrase, most phrases first. */
  readonly outrankedBy: readonly Outranking[];
  /**
   * The skill that comes before it on most of its own phrases, more than half of them: an agent
   * asking for what this skill says it does gets that one instead.
   */
  readonly collision?: Outranking;
}

/**
 * Each skill of `review` searched for with its own phrases (phrases.ts) through `ranker`, which
 * holds the whole catalog: how findable it is, and which skills take its place.
 */
export async function findability(ranker: Ranker, review: readonly CatalogSkill[]): Promise<Findability[]> {
  const results: Findability[] = [];
  for (const skill of review) {
    const phrases: PhraseResult[] = [];
    for (const phrase of ownPhrases(skill)) {
      const ranked = await ranker.search(phrase, { limit: SEARCH_DEPTH });
      const at = ranked.findIndex((result) => result.skill.qualifiedId === skill.qualifiedId);
      const above = (at === -1 ? ranked : ranked.slice(0, at)).map((result) => result.skill.id);
      phrases.push({ phrase, rank: at === -1 ? undefined : at + 1, above: above.slice(0, 3) });
    }
    results.push({ skill, phrases, ...judge(phrases) });
  }
  return results;
}

function judge(phrases: readonly PhraseResult[]): Pick<Findability, "score" | "outrankedBy" | "collision"> {
  if (phrases.length === 0) return { score: undefined, outrankedBy: [] };
  const score = Math.round(
    (100 * phrases.reduce((sum, result) => sum + (result.rank === undefined ? 0 : 1 / result.rank), 0)) /
      phrases.length,
  );
  const by = new Map<string, string[]>();
  for (const result of phrases) for (const id of result.above) by.set(id, [...(by.get(id) ?? []), result.phrase]);
  const outrankedBy = [...by]
    .map(([id, won]) => ({ id, phrases: won }))
    .sort((a, b) => b.phrases.length - a.phrases.length);
  const top = outrankedBy[0];
  return { score, outrankedBy, ...(top && top.phrases.length * 2 > phrases.length && { collision: top }) };
}
