import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { Logger } from "../../../kernel/logger.js";
import { createHash } from "node:crypto";
import type { Cache } from "../../../kernel/cache.js";
import { errorMessage } from "../../../kernel/errors.js";
import type { RankedSkill, Ranker, RankerSearchOptions } from "../../../skills/types.js";
import { dot, type EmbeddingsProvider } from "./embeddings.js";
import type { LRUCache } from "lru-cache";
import { FusedRanker } from "./fused-ranker.js";

export interface HybridSettings {
  /** How many candidates each side (lexical, vector) brings to the fusion. */
  readonly candidates: number;
  /** Reciprocal rank fusion's constant: 60 in Cormack, Clarke and Büttcher (2009). */
  readonly rrfK: number;
  /**
   * The vector side's say in the fusion, the lexical side's being 1: a model weaker than the words
   * on the requests they match should only break their ties and bring what they miss.
   */
  readonly vectorWeight: number;
  /** Texts per embeddings request while the catalog is embedded in the background. */
  readonly batchSize: number;
  /** How long a search waits for the background embedding to finish before it goes on with what is there. */
  readonly warmupWaitMs: number;
}

/** What is embedded of a skill: what an agent reads to choose it. */
const EMBEDDED_CHARS = 2000;
function embeddedText(skill: CatalogSkill): string {
  return `${skill.name}: ${skill.description}`.slice(0, EMBEDDED_CHARS);
}

/**
 * Lexical results fused with vector similarity by weighted reciprocal rank fusion: each skill
 * scores 1 / (k + its lexical rank) + w / (k + its vector rank), so a skill both sides rank high
 * wins, and one that only the embeddings find (a request in other words) can still come up.
 *
 * The catalog is embedded in the background after each build or addition, in batches, and the
 * vectors are kept in a bounded cache keyed by the embedded text (an edited skill is embedded
 * anew), and in the kernel's shared cache when there is one, so a restart embeds nothing again. Until a skill's vector is there, the lexical side still finds it; if the endpoint fails,
 * searches answer with the lexical results alone and the failure is logged once until it recovers.
 *
 * Scores: a query naming a skill keeps 100; the others keep their own lexical score, but never
 * more than the result ranked above them, so the labels keep the lexical side's calibration: a
 * query the catalog does not cover is never strong, and a result the vectors moved up is labelled
 * by what its words matched. (A share of the best possible fused score, used before, drew the gap
 * between the first two results in fused ranks, and with a weighted vector side a strong first
 * result was wrong three times in ten among 5,000 distractors: docs/search.md.)
 */
export class HybridRanker extends FusedRanker<CatalogSkill> {
  readonly name = "hybrid";
  #warming = new AbortController();
  /** Settles when the background embedding in progress ends (done, failed or superseded). */
  #warm: Promise<void> = Promise.resolve();
  #failing = false;
  /** The copies made for callers' views, closed with this one. */
  readonly #copies: HybridRanker[] = [];

  readonly #embeddings: EmbeddingsProvider;
  readonly #vectors: LRUCache<string, Float32Array>;
  readonly #settings: HybridSettings;
  readonly #logger: Logger;
  /** The kernel's shared cache, when a plugin provides one: vectors outlive the process there. */
  readonly #shared: Cache | undefined;

  // Private by `#`: a copy is handed to other plugins (TOKENS.Ranker), and holds the embeddings
  // client (its API key) and the ranker plugin's cache namespace; the lexical ranker is no secret.
  constructor(
    lexical: Ranker,
    embeddings: EmbeddingsProvider,
    vectors: LRUCache<string, Float32Array>,
    settings: HybridSettings,
    logger: Logger,
    shared?: Cache,
  ) {
    super(lexical);
    this.#embeddings = embeddings;
    this.#vectors = vectors;
    this.#settings = settings;
    this.#logger = logger;
    this.#shared = shared;
  }

  /** A new catalog: what was being embedded for the old one is not waited for. */
  override build(skills: readonly CatalogSkill[]): void {
    this.#warming.abort();
    this.#warming = new AbortController();
    super.build(skills);
  }

  /** Stop embedding in the background. */
  close(): void {
    this.#warming.abort();
    for (const copy of this.#copies) copy.close();
  }

  /** Shares the embeddings client and the vector cache: the same skill is embedded once. */
  emptyCopy(): HybridRanker {
    const lexical = this.lexical.emptyCopy?.();
    if (!lexical) throw new Error(`the lexical ranker ${this.lexical.name} cannot make an empty copy`);
    const copy = new HybridRanker(lexical, this.#embeddings, this.#vectors, this.#settings, this.#logger, this.#shared);
    this.#copies.push(copy);
    return copy;
  }

  async search(query: string, options: RankerSearchOptions): Promise<RankedSkill[]> {
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0) return [];
    const { candidates, rrfK, vectorWeight } = this.#settings;
    const lexical = await this.lexical.search(query, { ...options, limit: Math.max(limit, candidates) });
    this.lastVectorOnly = { query, source: options.source, count: 0 };
    await Promise.race([
      this.#warm,
      new Promise((resolve) => setTimeout(resolve, this.#settings.warmupWaitMs).unref()),
    ]);
    let queryVector: Float32Array;
    try {
      [queryVector] = (await this.#embed([query])) as [Float32Array];
      await this.#embed(lexical.map(({ skill }) => embeddedText(skill)));
      this.#recovered();
    } catch (error) {
      this.#failed(error);
      return lexical.slice(0, limit);
    }

    const named = lexical.filter((r) => r.score >= 100);
    const fused = new Map<string, { skill: CatalogSkill; score: number }>();
    const bump = (skill: CatalogSkill, rank: number, weight: number) => {
      const entry = fused.get(skill.qualifiedId) ?? { skill, score: 0 };
      entry.score += weight / (rrfK + rank);
      fused.set(skill.qualifiedId, entry);
    };
    lexical.forEach(({ skill, score }, i) => score < 100 && bump(skill, i + 1, 1));
    const fromLexical = fused.size;
    this.#nearest(queryVector, options.source, candidates).forEach((skill, i) => bump(skill, i + 1, vectorWeight));
    for (const { skill } of named) fused.delete(skill.qualifiedId);
    this.lastVectorOnly = { query, source: options.source, count: Math.max(0, fused.size - fromLexical) };

    const lexicalScores = new Map(lexical.map(({ skill, score }) => [skill.qualifiedId, score]));
    let ceiling = 99;
    const ranked = [...fused.values()]
      .sort((a, b) => b.score - a.score)
      .map(({ skill }) => {
        ceiling = Math.min(ceiling, lexicalScores.get(skill.qualifiedId) ?? 0);
        return { skill, score: ceiling };
      });
    return [...named, ...ranked].slice(0, limit);
  }

  /** The `count` skills whose embedded vectors are closest to `query`, among those embedded so far. */
  #nearest(query: Float32Array, source: string | undefined, count: number): CatalogSkill[] {
    const scored: { skill: CatalogSkill; similarity: number }[] = [];
    for (const skill of this.skills.values()) {
      if (source !== undefined && skill.source !== source) continue;
      const vector = this.#vectors.peek(embeddedText(skill));
      const similarity = vector ? dot(query, vector) : 0;
      // Orthogonal or opposite says nothing in common.
      if (similarity > 0) scored.push({ skill, similarity });
    }
    return scored
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, count)
      .map(({ skill }) => skill);
  }

  /**
   * Vectors for `texts`: from the in-process cache, else from the shared cache, else from one
   * request for all those still missing (then stored in both).
   */
  async #embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    let missing = [...new Set(texts.filter((text) => this.#vectors.get(text) === undefined))];
    if (missing.length > 0 && this.#shared) {
      const stored = await Promise.all(missing.map((text) => this.#shared!.get<number[]>(this.#sharedKey(text))));
      missing.forEach((text, i) => {
        const vector = stored[i];
        if (Array.isArray(vector) && vector.length > 0 && vector.every((x) => typeof x === "number"))
          this.#vectors.set(text, Float32Array.from(vector));
      });
      missing = missing.filter((_, i) => this.#vectors.peek(missing[i]!) === undefined);
    }
    if (missing.length > 0) {
      const vectors = await this.#embeddings.embed(missing, signal);
      missing.forEach((text, i) => this.#vectors.set(text, vectors[i]!));
      if (this.#shared)
        await Promise.all(missing.map((text, i) => this.#shared!.set(this.#sharedKey(text), Array.from(vectors[i]!))));
    }
    return texts.map((text) => this.#vectors.peek(text)!);
  }

  /** One key per model and text, of fixed length whatever the text. */
  #sharedKey(text: string): string {
    return `vector:${createHash("sha256").update(`${this.#embeddings.description}\n${text}`).digest("hex")}`;
  }

  protected index(skills: readonly CatalogSkill[]): void {
    for (const skill of skills) this.skills.set(skill.qualifiedId, skill);
    const previous = this.#warm;
    const signal = this.#warming.signal;
    this.#warm = previous.then(() => this.#embedAll(skills, signal));
  }

  /** Embed skills in the background, a batch at a time, until done, failed or superseded. */
  async #embedAll(skills: readonly CatalogSkill[], signal: AbortSignal): Promise<void> {
    const texts = skills.map(embeddedText);
    for (let start = 0; start < texts.length && !signal.aborted; start += this.#settings.batchSize) {
      try {
        await this.#embed(texts.slice(start, start + this.#settings.batchSize), signal);
        this.#recovered();
      } catch (error) {
        if (!signal.aborted) this.#failed(error);
        return;
      }
    }
  }

  #failed(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#logger.warn(`embeddings failed, ranking by words alone until they work again: ${errorMessage(error)}`);
  }

  #recovered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#logger.info(`embeddings work again (${this.#embeddings.description})`);
  }
}
