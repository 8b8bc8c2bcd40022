import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { RankedSkill, Ranker, RankerSearchOptions } from "../../../skills/types.js";

/**
 * What the rankers fusing a lexical ranker's results with vectors (hybrid, semantic) keep alike:
 * the lexical ranker in step with the skills indexed, each skill with what the vector side keeps
 * of it, and, for `count`, how many skills the last search's vectors alone brought.
 */
export abstract class FusedRanker<Entry, Lexical extends Ranker = Ranker> implements Ranker {
  abstract readonly name: string;
  /** Each skill indexed, by qualified id, with what the vector side keeps of it. */
  protected readonly skills = new Map<string, Entry>();
  /** For `count`: the last search's query and how many skills only the vectors brought. */
  protected lastVectorOnly: { query: string; source: string | undefined; count: number } | undefined;

  protected constructor(protected readonly lexical: Lexical) {}

  /** Keep each skill's entry in `skills`, and start embedding what has no vector yet. */
  protected abstract index(skills: readonly CatalogSkill[]): void;

  abstract search(query: string, options: RankerSearchOptions): Promise<RankedSkill[]>;

  build(skills: readonly CatalogSkill[]): void {
    this.lexical.build(skills);
    this.skills.clear();
    this.lastVectorOnly = undefined;
    this.index(skills);
  }

  add(skills: readonly CatalogSkill[]): void {
    this.lexical.add(skills);
    this.lastVectorOnly = undefined;
    this.index(skills);
  }

  remove(qualifiedIds: readonly string[]): void {
    this.lexical.remove(qualifiedIds);
    this.lastVectorOnly = undefined;
    for (const id of qualifiedIds) this.skills.delete(id);
  }

  /**
   * The lexical matches, plus the skills only the vectors brought (at most `candidates`: every
   * skill is somewhat similar to any query, so the vector side counts only what it brings).
   */
  async count(query: string, options: Omit<RankerSearchOptions, "limit">): Promise<number> {
    const last = this.lastVectorOnly;
    if (!last || last.query !== query || last.source !== options.source)
      await this.search(query, { ...options, limit: 1 });
    const lexical = this.lexical.count
      ? await this.lexical.count(query, options)
      : (await this.lexical.search(query, { ...options, limit: Math.max(1, this.skills.size) })).length;
    return lexical + (this.lastVectorOnly?.count ?? 0);
  }
}
