import Fuse, { type IFuseOptions } from "fuse.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import { extractTriggers, skillCategory } from "../../../skills/skill-md/skill-fields.js";
import type { RankedSkill, Ranker, RankerSearchOptions } from "../../../skills/types.js";

interface FuseEntry {
  readonly skill: CatalogSkill;
  readonly name: string;
  readonly description: string;
  readonly triggers: string;
  readonly category: string;
}

/**
 * The agent-skills MCP server's Fuse.js settings, kept as they are so this ranker stays the
 * compatible baseline: extended search (each space-separated word must match), matches scored by
 * their distance from the start of a field, name first.
 */
export const FUSE_OPTIONS: IFuseOptions<FuseEntry> = {
  keys: [
    { name: "name", weight: 0.45 },
    { name: "triggers", weight: 0.3 },
    { name: "description", weight: 0.2 },
    { name: "category", weight: 0.05 },
  ],
  threshold: 0.4,
  useExtendedSearch: true,
  minMatchCharLength: 2,
  includeScore: true,
};

/**
 * Fuse's bitap search costs grow with the pattern, and extended search adds a pass per word: a
 * longer query is cut here so a pasted document cannot stall the server.
 */
const MAX_FUSE_QUERY_CHARS = 256;

function entry(skill: CatalogSkill): FuseEntry {
  return {
    skill,
    name: skill.name,
    description: skill.description,
    triggers: extractTriggers(skill.description).join(" "),
    category: skillCategory(skill.frontmatter),
  };
}

/** Fuse.js with the agent-skills settings; a Fuse score (0 best, 1 worst) becomes 100 × (1 − score). */
export class FuseRanker implements Ranker {
  readonly name = "fuse";

  emptyCopy(): FuseRanker {
    return new FuseRanker();
  }
  #fuse = new Fuse<FuseEntry>([], FUSE_OPTIONS);
  readonly #ids = new Set<string>();

  build(skills: readonly CatalogSkill[]): void {
    this.#ids.clear();
    for (const skill of skills) this.#ids.add(skill.qualifiedId);
    this.#fuse.setCollection(skills.map(entry));
  }

  add(skills: readonly CatalogSkill[]): void {
    const replaced = new Set(
      skills.filter((skill) => this.#ids.has(skill.qualifiedId)).map((skill) => skill.qualifiedId),
    );
    if (replaced.size > 0) this.remove([...replaced]);
    for (const skill of skills) {
      this.#fuse.add(entry(skill));
      this.#ids.add(skill.qualifiedId);
    }
  }

  remove(qualifiedIds: readonly string[]): void {
    const gone = new Set(qualifiedIds.filter((id) => this.#ids.has(id)));
    if (gone.size === 0) return;
    this.#fuse.remove((doc) => gone.has(doc.skill.qualifiedId));
    for (const id of gone) this.#ids.delete(id);
  }

  search(query: string, options: RankerSearchOptions): RankedSkill[] {
    const pattern = query.trim().slice(0, MAX_FUSE_QUERY_CHARS);
    if (!pattern) return [];
    const ranked: RankedSkill[] = [];
    for (const result of this.#fuse.search(pattern)) {
      if (ranked.length >= options.limit) break;
      if (options.source !== undefined && result.item.skill.source !== options.source) continue;
      ranked.push({ skill: result.item.skill, score: Math.round((1 - (result.score ?? 1)) * 1000) / 10 });
    }
    return ranked;
  }
}
