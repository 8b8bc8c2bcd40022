import { LRUCache } from "lru-cache";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { RankedSkill, RankerSearchOptions } from "../../../skills/types.js";
import { Bm25Ranker } from "../ranker-bm25/index.js";
import { dot, FusedRanker } from "../ranker-hybrid/index.js";
import { DEFAULT_FUSION, type FusionSettings, fuse, type Neighbour, vectorSay } from "./fusion.js";
import { type SkillVectors, textKey } from "./skill-vectors.js";

/** What is embedded of a skill: what an agent reads to choose it, cut to what the model reads. */
const EMBEDDED_CHARS = 1500;
export function embeddedText(skill: CatalogSkill): string {
  const whenToUse = skill.frontmatter?.when_to_use;
  const parts = [`${skill.name.replace(/[-_]+/g, " ")}: ${skill.description}`];
  if (typeof whenToUse === "string" && whenToUse.trim()) parts.push(whenToUse.trim());
  return parts.join("\n").slice(0, EMBEDDED_CHARS);
}

export interface SemanticSettings extends FusionSettings {
  /** Candidates each side brings to the fusion. */
  readonly candidates: number;
}

export const DEFAULT_SEMANTIC: SemanticSettings = { ...DEFAULT_FUSION, candidates: 50 };

/**
 * BM25, with a sentence-embeddings model's vectors fused in where the words are unsure (fusion.ts).
 * Until every skill has its vector, and whenever the model cannot run, it answers by words alone,
 * and `warming()` says so while the vectors are on their way.
 */
export class SemanticRanker extends FusedRanker<{ readonly skill: CatalogSkill; readonly key: string }, Bm25Ranker> {
  readonly name = "semantic";
  /** Whether every skill held had its vector at the last look (reset when skills are added). */
  #complete = false;
  readonly #queries = new LRUCache<string, Float32Array>({ max: 500 });

  constructor(
    readonly vectors: SkillVectors,
    readonly settings: SemanticSettings = DEFAULT_SEMANTIC,
  ) {
    super(new Bm25Ranker());
  }

  emptyCopy(): SemanticRanker {
    return new SemanticRanker(this.vectors, this.settings);
  }

  warming(): boolean {
    if (this.vectors.state === "unavailable") return false;
    if (this.vectors.state === "loading") return this.skills.size > 0;
    if (!this.#complete) this.#complete = [...this.skills.values()].every(({ key }) => this.vectors.get(key));
    return !this.#complete;
  }

  async search(query: string, options: RankerSearchOptions): Promise<RankedSkill[]> {
    const limit = Math.max(0, Math.floor(options.limit));
    const vectorOnly = { query, source: options.source, count: 0 };
    this.lastVectorOnly = vectorOnly;
    if (limit === 0) return [];
    const lexical = this.lexical.search(query, { ...options, limit: Math.max(limit, this.settings.candidates) });
    const say = vectorSay(lexical, this.settings);
    // Sure words, a model that cannot run or vectors not there yet: the words answer alone.
    if (say === 0 || this.warming() || this.vectors.state !== "ready") return lexical.slice(0, limit);
    const queryVector = await this.#queryVector(query);
    if (!queryVector) return lexical.slice(0, limit);
    const neighbours = this.#nearest(queryVector, options.source);
    const fused = fuse(lexical, neighbours, say, Math.max(limit, this.settings.candidates), this.settings);
    const lexicalIds = new Set(lexical.map(({ skill }) => skill.qualifiedId));
    vectorOnly.count = fused.filter(({ skill }) => !lexicalIds.has(skill.qualifiedId)).length;
    return fused.slice(0, limit);
  }

  async #queryVector(query: string): Promise<Float32Array | undefined> {
    const known = this.#queries.get(query);
    if (known) return known;
    try {
      const vector = await this.vectors.embedQuery(query);
      if (vector) this.#queries.set(query, vector);
      return vector;
    } catch {
      // The model failing on one query costs that query its vectors only.
      return undefined;
    }
  }

  /** The `candidates` skills whose vectors are closest to the query's. */
  #nearest(query: Float32Array, source: string | undefined): Neighbour[] {
    const scored: Neighbour[] = [];
    for (const { skill, key } of this.skills.values()) {
      if (source !== undefined && skill.source !== source) continue;
      const vector = this.vectors.get(key);
      if (vector) scored.push({ skill, similarity: dot(query, vector) });
    }
    return scored.sort((a, b) => b.similarity - a.similarity).slice(0, this.settings.candidates);
  }

  protected index(skills: readonly CatalogSkill[]): void {
    const texts = new Map<string, string>();
    for (const skill of skills) {
      const text = embeddedText(skill);
      const key = textKey(text);
      this.skills.set(skill.qualifiedId, { skill, key });
      texts.set(key, text);
    }
    this.#complete = false;
    this.vectors.need(texts);
  }
}
