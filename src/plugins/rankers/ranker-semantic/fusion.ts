import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { RankedSkill } from "../../../skills/types.js";
import { matchQuality } from "../../tools/search-skills/index.js";

/** A skill and its vector's cosine similarity to the query. */
export interface Neighbour {
  readonly skill: CatalogSkill;
  readonly similarity: number;
}

/**
 * How the fusion weighs the two sides. Calibrated on the project's own paraphrase set and
 * generated development set (bench/fixtures/paraphrase-queries.tsv, docs/search.md).
 */
export interface FusionSettings {
  /** The vectors' say when the words found nothing convincing at all: 0 (none) to 1 (all). */
  readonly maxVectorSay: number;
  /** A lexical top score at or above this is as sure as the words get (with a clear margin). */
  readonly sureScore: number;
  /**
   * A spread this wide between the nearest and the farthest candidate is as sure as the vectors
   * get: a query the model cannot read (a typo, a bare name) is about as near to everything.
   */
  readonly sureSpread: number;
  /** A score a result only the vectors found may show at most. */
  readonly vectorOnlyMaxScore: number;
}

export const DEFAULT_FUSION: FusionSettings = {
  maxVectorSay: 0.75,
  sureScore: 60,
  sureSpread: 0.3,
  vectorOnlyMaxScore: 45,
};

/**
 * The most a fused result may score: just under `strong` (search_skills' 60). Vectors count only
 * where the words were unsure, and a reordering they made is no surer than the words were.
 */
const FUSED_MAX_SCORE = 59;

/**
 * How much the vectors count for this lexical answer, 0 to `maxVectorSay`: none when the words'
 * top result names the skill or is labelled strong (score and margin over the second), more the
 * weaker and the less clear the words' top result is.
 */
export function vectorSay(lexical: readonly RankedSkill[], settings: FusionSettings = DEFAULT_FUSION): number {
  const top = lexical[0]?.score ?? 0;
  const second = lexical[1]?.score;
  if (top <= 0) return settings.maxVectorSay;
  const label = matchQuality(Math.round(top), second === undefined ? undefined : Math.round(second));
  if (label === "exact" || label === "strong") return 0;
  const level = Math.min(1, top / settings.sureScore);
  // A top result far clear of the second is surer than one the second ties.
  const clearance = second === undefined || second <= 0 ? 1 : Math.min(1, (top / second - 1) / 0.2);
  const confidence = level * (0.5 + 0.5 * clearance);
  return settings.maxVectorSay * (1 - confidence);
}

/**
 * The lexical results and the query's nearest neighbours, fused: each skill scores
 * (1 − v) × its lexical score relative to the top one + v × where its similarity lies between the
 * farthest and the nearest neighbour's, v being `say` shrunk by how little the neighbours' spread
 * is (`sureSpread`). Results are labelled by their words' evidence: each keeps its lexical score, never
 * more than the result ranked above it nor FUSED_MAX_SCORE, and one only the vectors found at
 * most `vectorOnlyMaxScore`: no fused result is `strong`.
 */
export function fuse(
  lexical: readonly RankedSkill[],
  neighbours: readonly Neighbour[],
  say: number,
  limit: number,
  settings: FusionSettings = DEFAULT_FUSION,
): RankedSkill[] {
  const named = lexical.filter((r) => r.score >= 100);
  const lexicalTop = Math.max(...lexical.filter((r) => r.score < 100).map((r) => r.score), 0);
  const nearest = neighbours[0]?.similarity ?? 0;
  // The farthest neighbour brought counts as no similarity: the spread between is what ranks.
  const floor = neighbours.at(-1)?.similarity ?? 0;
  const spread = nearest - floor;
  // The vectors' say shrinks as unsure as they are themselves.
  const vectorShare = say * Math.min(1, spread / settings.sureSpread);
  const entries = new Map<string, { skill: CatalogSkill; fused: number; lexical: number; similarity: number }>();
  for (const { skill, score } of lexical) {
    if (score >= 100) continue;
    const share = lexicalTop > 0 ? score / lexicalTop : 0;
    entries.set(skill.qualifiedId, { skill, fused: (1 - vectorShare) * share, lexical: score, similarity: 0 });
  }
  const namedIds = new Set(named.map(({ skill }) => skill.qualifiedId));
  for (const { skill, similarity } of neighbours) {
    if (namedIds.has(skill.qualifiedId)) continue;
    const entry = entries.get(skill.qualifiedId) ?? { skill, fused: 0, lexical: 0, similarity: 0 };
    entry.similarity = similarity;
    entry.fused += vectorShare * (spread > 0 ? (similarity - floor) / spread : 1);
    entries.set(skill.qualifiedId, entry);
  }
  let ceiling = FUSED_MAX_SCORE;
  const ranked = [...entries.values()]
    .sort((a, b) => b.fused - a.fused || b.lexical - a.lexical)
    .slice(0, Math.max(0, limit - named.length))
    .map(({ skill, lexical: score, similarity }) => {
      const own = score > 0 ? score : Math.min(settings.vectorOnlyMaxScore, Math.round(100 * similarity));
      ceiling = Math.min(ceiling, own);
      return { skill, score: ceiling };
    });
  return [...named, ...ranked].slice(0, limit);
}
