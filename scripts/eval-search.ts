// Search quality on ../shared/search-eval: every query of each set (the two judged sets by default,
// "dev" for the generated development set) through every ranker, on the corpus alone and with
// synthetic distractors added, reported as recall@1, recall@5 and MRR overall and per query style,
// each set separately (docs/search.md).
//
//   npm run eval:search [-- --distractors 5000] [--queries a.tsv,dev] [--rankers bm25,fuse] [--labels]
//     [--embeddings-url http://127.0.0.1:11434/v1 --embeddings-model nomic-embed-text --rankers bm25,hybrid [--rrf-k 60] [--vector-weight 1]]
//     [--rankers bm25,semantic [--max-vector-say 0.75]]
// The semantic ranker's packages are looked for in test/semantic-model (which `npm test` installs),
// then beside the project; its vectors are kept in the user's cache folder between runs.
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import MiniSearch from "minisearch";
import { CORPUS, loadSeedSkills, SHARED, syntheticCatalog } from "../bench/synthetic-catalog.js";
import type { CatalogSkill } from "../src/skills/catalog/catalog-types.js";
import type { RankedSkill, Ranker, RankerSearchOptions } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { FuseRanker } from "../src/plugins/rankers/ranker-fuse/ranker.js";
import { OpenAiEmbeddings } from "../src/plugins/rankers/ranker-hybrid/embeddings.js";
import { LRUCache } from "lru-cache";
import { HybridRanker } from "../src/plugins/rankers/ranker-hybrid/ranker.js";
import { createLogger } from "../src/kernel/logger.js";
import { SemanticRanker } from "../src/plugins/rankers/ranker-semantic/index.js";
import { DEFAULT_SEMANTIC } from "../src/plugins/rankers/ranker-semantic/ranker.js";
import { localSemantic } from "../bench/local-semantic.js";
import { fileURLToPath } from "node:url";
import { MATCH_QUALITIES, matchQuality, type MatchQuality } from "../src/plugins/tools/search-skills/answer.js";
import { type DevQuery, generateDevQueries, NEGATIVE_QUERIES } from "./dev-queries.js";

const { values } = parseArgs({
  options: {
    distractors: { type: "string", default: "5000" },
    // Comma-separated: TSV files in the judged format, or "dev" for the generated development set.
    queries: {
      type: "string",
      default: [
        join(SHARED, "search-eval/queries.tsv"),
        join(SHARED, "search-eval/queries-generalise.tsv"),
        fileURLToPath(new URL("../bench/fixtures/paraphrase-queries.tsv", import.meta.url)),
      ].join(","),
    },
    rankers: { type: "string", default: "fuse,minisearch-reference,bm25,semantic" },
    // Also print, per set, how the top result's match_quality held up (right / wrong per label).
    labels: { type: "boolean", default: false },
    // An OpenAI-compatible embeddings endpoint and model: adds the "hybrid" ranker.
    "embeddings-url": { type: "string" },
    "embeddings-model": { type: "string" },
    // The hybrid ranker's fusion constant (its `rrfK` option).
    "rrf-k": { type: "string", default: "60" },
    // The weight of the hybrid's vector side in the fusion (its `vectorWeight` option).
    "vector-weight": { type: "string", default: "1" },
    // The semantic ranker's `maxVectorSay` option.
    "max-vector-say": { type: "string", default: String(DEFAULT_SEMANTIC.maxVectorSay) },
  },
});
const querySets = values.queries.split(",").map((q) => q.trim());
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
    return results
      .slice(0, options.limit)
      .map((r) => ({ skill: this.#skills.get(r.id)!, score: (100 * r.score) / top }));
  }
}

interface QuerySet {
  readonly label: string;
  readonly queries: readonly DevQuery[];
}

function readQueries(file: string): DevQuery[] {
  const [header, ...rows] = readFileSync(file, "utf8").trim().split("\n");
  const columns = header!.split("\t");
  const at = (name: string) => {
    const index = columns.indexOf(name);
    if (index === -1) throw new Error(`${file}: no column "${name}"`);
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

/** Right / wrong counts of the top result, by its match_quality. */
type LabelCounts = Record<MatchQuality, [right: number, wrong: number]>;
const emptyLabels = (): LabelCounts => ({ exact: [0, 0], strong: [0, 0], partial: [0, 0], weak: [0, 0] });
function labelCells(counts: LabelCounts): string {
  return MATCH_QUALITIES.map((q) => {
    const [right, wrong] = counts[q];
    return right + wrong === 0 ? "–" : `${right} / ${wrong} (${Math.round((100 * right) / (right + wrong))} %)`;
  }).join(" | ");
}

/** The top result's match_quality, as search_skills labels it (against the second). */
function topQuality(ranked: readonly RankedSkill[]): MatchQuality {
  const [first, second] = ranked.map((r) => Math.round(r.score));
  return matchQuality(first!, second);
}

async function main(): Promise<void> {
  if (!existsSync(CORPUS)) {
    console.log(
      `${CORPUS} is absent: nothing to evaluate (the evaluation needs ../shared/corpus and ../shared/search-eval).`,
    );
    return;
  }
  const seed = await loadSeedSkills();
  const sets: QuerySet[] = [];
  for (const name of querySets) {
    if (name === "dev")
      sets.push({ label: "development set (generated)", queries: generateDevQueries(seed.skills, CORPUS) });
    else if (existsSync(name)) sets.push({ label: basename(name), queries: readQueries(name) });
    else console.log(`${name} is absent: skipped.`);
  }
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
  const url = values["embeddings-url"];
  const model = values["embeddings-model"];
  if (url && model) {
    const embeddings = new OpenAiEmbeddings({ url, model, timeoutMs: 60_000 });
    const settings = {
      candidates: 50,
      rrfK: Number(values["rrf-k"]),
      vectorWeight: Number(values["vector-weight"]),
      batchSize: 64,
      warmupWaitMs: 600_000,
    };
    available.hybrid = () =>
      new HybridRanker(
        new Bm25Ranker(),
        embeddings,
        new LRUCache<string, Float32Array>({ max: 100_000 }),
        settings,
        createLogger("warn"),
      );
  }
  if (values.rankers.split(",").includes("semantic"))
    available.semantic = localSemantic({ maxVectorSay: Number(values["max-vector-say"]) }).ranker;
  const rankers = values.rankers.split(",").map((name) => {
    const create = available[name.trim()];
    if (!create) throw new Error(`unknown ranker "${name}"; available: ${Object.keys(available).join(", ")}`);
    return create;
  });

  const reports = sets.map((set) => {
    const styles = [...new Set(set.queries.map((q) => q.style))].sort();
    const counts = styles.map((style) => `${set.queries.filter((q) => q.style === style).length} ${style}`);
    return {
      set,
      styles,
      heading: `${set.label}: ${set.queries.length} queries (${counts.join(", ")}) over ${seed.origin}`,
      overall: ["| ranker | catalog | recall@1 | recall@5 | MRR | median ms/query |", "|---|---|---:|---:|---:|---:|"],
      perStyle: [
        `| ranker | catalog | ${styles.map((s) => `${s} R@1 / R@5 / MRR`).join(" | ")} |`,
        `|---|---|${styles.map(() => "---:").join("|")}|`,
      ],
      labels: [
        `| ranker | catalog | ${MATCH_QUALITIES.map((q) => `${q}: right / wrong`).join(" | ")} |`,
        `|---|---|${MATCH_QUALITIES.map(() => "---").join("|")}|`,
      ],
    };
  });
  const negatives = [
    `| ranker | catalog | ${MATCH_QUALITIES.join(" | ")} |`,
    `|---|---|${MATCH_QUALITIES.map(() => "---:").join("|")}|`,
  ];

  for (const catalog of catalogs) {
    for (const create of rankers) {
      const ranker = create();
      ranker.build(catalog.skills);
      // The semantic ranker answers by words alone until its vectors are there: measure it ready.
      if (ranker instanceof SemanticRanker) {
        await ranker.vectors.settled();
        if (ranker.vectors.state !== "ready") {
          console.log("semantic: the model is not available (see the line above); skipped.");
          continue;
        }
      }
      for (const report of reports) {
        const ranks = new Map<string, number>();
        const times: number[] = [];
        const labels = emptyLabels();
        for (const q of report.set.queries) {
          const started = performance.now();
          const ranked = await ranker.search(q.query, { limit: 10 });
          times.push(performance.now() - started);
          const rank = firstHit(ranked, q.accepted);
          ranks.set(q.id, rank);
          if (ranked[0]) labels[topQuality(ranked)][rank === 1 ? 0 : 1]++;
        }
        const all = summarise([...ranks.values()]);
        const cells = [ranker.name, catalog.label, fmt(all.r1), fmt(all.r5), fmt(all.mrr), median(times).toFixed(2)];
        report.overall.push(`| ${cells.join(" | ")} |`);
        const byStyle = report.styles.map((style) => {
          const s = summarise(report.set.queries.filter((q) => q.style === style).map((q) => ranks.get(q.id)!));
          return `${fmt(s.r1)} / ${fmt(s.r5)} / ${fmt(s.mrr)}`;
        });
        report.perStyle.push(`| ${ranker.name} | ${catalog.label} | ${byStyle.join(" | ")} |`);
        report.labels.push(`| ${ranker.name} | ${catalog.label} | ${labelCells(labels)} |`);
      }
      if (values.labels) {
        const counts = Object.fromEntries(MATCH_QUALITIES.map((q) => [q, 0])) as Record<MatchQuality, number>;
        for (const query of NEGATIVE_QUERIES) {
          const top = await ranker.search(query, { limit: 2 });
          if (top.length > 0) counts[topQuality(top)]++;
        }
        negatives.push(`| ${ranker.name} | ${catalog.label} | ${MATCH_QUALITIES.map((q) => counts[q]).join(" | ")} |`);
      }
    }
  }
  for (const report of reports) {
    console.log(`## ${report.heading}\n`);
    console.log(report.overall.join("\n"));
    console.log("\nPer query style:\n");
    console.log(report.perStyle.join("\n"));
    if (values.labels) console.log(`\nmatch_quality of the top result:\n\n${report.labels.join("\n")}`);
    console.log("");
  }
  if (values.labels) {
    console.log(`## ${NEGATIVE_QUERIES.length} requests no skill covers: match_quality of the top result\n`);
    console.log(negatives.join("\n"));
  }
}

await main();
