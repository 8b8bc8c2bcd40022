// Search quality on ../shared/search-eval: every judged query through every ranker, on the corpus
// alone and with synthetic distractors added, reported as recall@1, recall@5 and MRR overall and
// per query style (docs/search.md).
//
//   npm run eval:search [-- --distractors 5000] [--queries other.tsv] [--rankers bm25,fuse]
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import MiniSearch from "minisearch";
import { CORPUS, loadSeedSkills, syntheticCatalog } from "../bench/synthetic-catalog.js";
import type { CatalogSkill } from "../src/skills/catalog.js";
import type { RankedSkill, Ranker, RankerSearchOptions } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/ranker-bm25/ranker.js";
import { FuseRanker } from "../src/plugins/ranker-fuse/ranker.js";

const { values } = parseArgs({
  options: {
    distractors: { type: "string", default: "5000" },
    queries: { type: "string", default: fileURLToPath(new URL("../../shared/search-eval/queries.tsv", import.meta.url)) },
    rankers: { type: "string", default: "fuse,minisearch-reference,bm25" },
  },
});
const QUERIES = values.queries;
const distractorCount = Number(values.distractors);

/**
 * The issue's reference point for a plain library setup: MiniSearch over name and description,
 * prefix search and fuzzy 0.2, its defaults otherwise. Not a ranker anyone should configure.
 */
class MiniSearchReference implements Ranker {
  readonly name = "minisearch-reference";
  #index = this.#empty();
  readonly #skills = new Map<string, CatalogSkill>();

  #empty() {
    return new MiniSearch<CatalogSkill>({ idField: "qualifiedId", fields: ["name", "description"] });
  }
  build(skills: readonly CatalogSkill[]): void {
    this.#index = this.#empty();
    this.#skills.clear();
    this.add(skills);
  }
  add(skills: readonly CatalogSkill[]): void {
    for (const skill of skills) this.#skills.set(skill.qualifiedId, skill);
    this.#index.addAll(skills);
  }
  remove(qualifiedIds: readonly string[]): void {
    for (const id of qualifiedIds) this.#index.discard(id);
  }
  search(query: string, options: RankerSearchOptions): RankedSkill[] {
    const results = this.#index.search(query, { prefix: true, fuzzy: 0.2 });
    const top = results[0]?.score ?? 1;
    return results.slice(0, options.limit).map((r) => ({ skill: this.#skills.get(r.id)!, score: (100 * r.score) / top }));
  }
}

interface Judged {
  readonly id: string;
  readonly style: string;
  readonly query: string;
  readonly accepted: ReadonlySet<string>;
}

function readQueries(): Judged[] {
  const [header, ...rows] = readFileSync(QUERIES, "utf8").trim().split("\n");
  const columns = header!.split("\t");
  const at = (name: string) => {
    const index = columns.indexOf(name);
    if (index === -1) throw new Error(`${QUERIES}: no column "${name}"`);
    return index;
  };
  const [id, style, query, accepted] = [at("id"), at("style"), at("query"), at("accepted_names")];
  return rows.map((row) => {
    const cells = row.split("\t");
    return {
      id: cells[id]!,
      style: cells[style]!,
      query: cells[query]!,
      accepted: new Set(cells[accepted]!.split(",").map((name) => name.trim())),
    };
  });
}

interface Scores {
  readonly n: number;
  readonly r1: number;
  readonly r5: number;
  readonly mrr: number;
}

/** 1-based rank of the first accepted name in the top 10, or 0. */
function firstHit(ranked: readonly RankedSkill[], accepted: ReadonlySet<string>): number {
  const index = ranked.slice(0, 10).findIndex((r) => accepted.has(r.skill.name));
  return index + 1;
}

function summarise(ranks: readonly number[]): Scores {
  const n = ranks.length;
  const share = (test: (rank: number) => boolean) => ranks.filter(test).length / n;
  return {
    n,
    r1: share((r) => r === 1),
    r5: share((r) => r >= 1 && r <= 5),
    mrr: ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / n,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const fmt = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  // The judged answers are names of corpus skills: without both, there is nothing to measure.
  for (const needed of [QUERIES, CORPUS]) {
    if (!existsSync(needed)) {
      console.log(`${needed} is absent: nothing to evaluate (the evaluation needs ../shared/search-eval and ../shared/corpus).`);
      return;
    }
  }
  const queries = readQueries();
  const seed = await loadSeedSkills();
  const catalogs = [{ label: "corpus", skills: seed.skills }];
  if (distractorCount > 0) {
    const distractors = syntheticCatalog(seed.skills, distractorCount);
    catalogs.push({ label: `corpus + ${distractorCount} distractors`, skills: [...seed.skills, ...distractors] });
  }
  const available: Record<string, () => Ranker> = {
    fuse: () => new FuseRanker(),
    "minisearch-reference": () => new MiniSearchReference(),
    bm25: () => new Bm25Ranker(),
  };
  const rankers = values.rankers.split(",").map((name) => {
    const create = available[name.trim()];
    if (!create) throw new Error(`unknown ranker "${name}"; available: ${Object.keys(available).join(", ")}`);
    return create;
  });
  const styles = [...new Set(queries.map((q) => q.style))].sort();

  const counts = styles.map((style) => `${queries.filter((q) => q.style === style).length} ${style}`);
  console.log(`${queries.length} queries (${counts.join(", ")}) over ${seed.origin}\n`);
  const overall: string[] = [
    "| ranker | catalog | recall@1 | recall@5 | MRR | median ms/query |",
    "|---|---|---:|---:|---:|---:|",
  ];
  const perStyle: string[] = [
    `| ranker | catalog | ${styles.map((s) => `${s} R@1 / R@5 / MRR`).join(" | ")} |`,
    `|---|---|${styles.map(() => "---:").join("|")}|`,
  ];
  for (const catalog of catalogs) {
    for (const create of rankers) {
      const ranker = create();
      ranker.build(catalog.skills);
      const ranks = new Map<string, number>();
      const times: number[] = [];
      for (const q of queries) {
        const started = performance.now();
        const ranked = await ranker.search(q.query, { limit: 10 });
        times.push(performance.now() - started);
        ranks.set(q.id, firstHit(ranked, q.accepted));
      }
      const all = summarise([...ranks.values()]);
      const cells = [ranker.name, catalog.label, fmt(all.r1), fmt(all.r5), fmt(all.mrr), median(times).toFixed(2)];
      overall.push(`| ${cells.join(" | ")} |`);
      const byStyle = styles.map((style) => {
        const s = summarise(queries.filter((q) => q.style === style).map((q) => ranks.get(q.id)!));
        return `${fmt(s.r1)} / ${fmt(s.r5)} / ${fmt(s.mrr)}`;
      });
      perStyle.push(`| ${ranker.name} | ${catalog.label} | ${byStyle.join(" | ")} |`);
    }
  }
  console.log(overall.join("\n"));
  console.log("\nPer query style:\n");
  console.log(perStyle.join("\n"));
}

await main();
