import type { CatalogSkill } from "../catalog/catalog-types.js";
import { topicWords } from "../topic-words.js";

/** Two descriptions this alike (cosine of their topic-word counts) say the same thing. */
export const NEAR_DUPLICATE = 0.9;

export interface NearDuplicate {
  /** The skill under review. */
  readonly skill: CatalogSkill;
  readonly other: CatalogSkill;
  /** 0 to 1. */
  readonly similarity: number;
}

/**
 * Each skill of `review` whose description says what another skill's in `pool` says (its topic
 * words, counted, at a cosine of NEAR_DUPLICATE or more): an agent cannot tell the two apart. A
 * pair of skills both under review is reported once. Only skills sharing a word are compared.
 */
export function nearDuplicates(review: readonly CatalogSkill[], pool: readonly CatalogSkill[]): NearDuplicate[] {
  const vectors = new Map(pool.map((skill) => [skill, counts(skill.description)]));
  for (const skill of review) if (!vectors.has(skill)) vectors.set(skill, counts(skill.description));
  // Which skills use each word, for the pairs worth comparing.
  const users = new Map<string, CatalogSkill[]>();
  for (const skill of pool) {
    for (const word of vectors.get(skill)!.weights.keys()) {
      const list = users.get(word);
      if (list) list.push(skill);
      else users.set(word, [skill]);
    }
  }
  const reviewed = new Set(review);
  const found: NearDuplicate[] = [];
  const seen = new Set<string>();
  for (const skill of review) {
    const own = vectors.get(skill)!;
    const dots = new Map<CatalogSkill, number>();
    for (const [word, weight] of own.weights)
      for (const other of users.get(word) ?? [])
        if (other.qualifiedId !== skill.qualifiedId)
          dots.set(other, (dots.get(other) ?? 0) + weight * vectors.get(other)!.weights.get(word)!);
    for (const [other, dot] of dots) {
      const similarity = dot / (own.norm * vectors.get(other)!.norm);
      if (similarity < NEAR_DUPLICATE) continue;
      const pair = [skill.qualifiedId, other.qualifiedId].sort().join("\n");
      if (reviewed.has(other) && seen.has(pair)) continue;
      seen.add(pair);
      found.push({ skill, other, similarity: Math.min(1, similarity) });
    }
  }
  return found.sort((a, b) => b.similarity - a.similarity);
}

function counts(text: string): { weights: Map<string, number>; norm: number } {
  const weights = new Map<string, number>();
  for (const word of topicWords(text)) weights.set(word, (weights.get(word) ?? 0) + 1);
  let squares = 0;
  for (const weight of weights.values()) squares += weight * weight;
  return { weights, norm: Math.sqrt(squares) || 1 };
}
