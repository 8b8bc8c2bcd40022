// Whether the bm25 ranker returns exactly what it did at a git commit: every result list (skill
// and score, top 10 and every match) and every count, over the development queries, the public
// evaluation queries (when present) and the negative ones, on the corpus alone, with 5,000
// distractors (after removing and re-adding skills) and with 20,000. For changes meant to make the
// ranker faster without changing what it finds (docs/benchmarks.md). Exits 1 on any difference.
//
//   npx tsx scripts/compare-rankers.ts --baseline <git ref>
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CatalogSkill } from "../src/skills/catalog/catalog-types.js";
import type { Ranker } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { baselineRanker } from "../bench/baseline-ranker.js";
import { CORPUS, loadSeedSkills, SHARED, syntheticCatalog } from "../bench/synthetic-catalog.js";
import { generateDevQueries, NEGATIVE_QUERIES } from "./dev-queries.js";

const { values } = parseArgs({ options: { baseline: { type: "string" } } });
if (values.baseline === undefined) {
  console.error("usage: npx tsx scripts/compare-rankers.ts --baseline <git ref>");
  process.exit(2);
}
const baseline = await baselineRanker(values.baseline);

function publicQueries(): string[] {
  return ["queries.tsv", "queries-generalise.tsv"]
    .map((file) => join(SHARED, "search-eval", file))
    .filter(existsSync)
    .flatMap((file) => {
      const rows = readFileSync(file, "utf8").trim().split("\n");
      const column = rows[0]!.split("\t").indexOf("query");
      return rows.slice(1).map((row) => row.split("\t")[column]!);
    });
}

async function answer(ranker: Ranker, query: string, limit: number): Promise<string> {
  const results = (await ranker.search(query, { limit })).map((r) => [r.skill.qualifiedId, r.score]);
  return JSON.stringify([results, await ranker.count?.(query, {})]);
}

const seed = await loadSeedSkills();
const queries = [
  ...generateDevQueries(seed.skills, CORPUS).map((q) => q.query),
  ...publicQueries(),
  ...NEGATIVE_QUERIES,
];
let compared = 0;
let differences = 0;
for (const distractors of [0, 5000, 20_000]) {
  const catalog: CatalogSkill[] = [...seed.skills, ...syntheticCatalog(seed.skills, distractors)];
  const now: Ranker = new Bm25Ranker();
  const before = baseline.create();
  for (const ranker of [now, before]) {
    ranker.build(catalog);
    if (distractors === 5000) {
      // The incremental path too: remove 300 skills and add half of them back.
      const some = catalog.slice(100, 400);
      ranker.remove(some.map((skill) => skill.qualifiedId));
      ranker.add(some.slice(0, 150));
    }
  }
  for (const query of queries) {
    for (const limit of [10, catalog.length]) {
      compared++;
      if ((await answer(now, query, limit)) === (await answer(before, query, limit))) continue;
      differences++;
      if (differences <= 10) console.log(`differs (${catalog.length} skills, limit ${limit}): ${query}`);
    }
  }
  console.log(`${catalog.length} skills: ${compared} comparisons so far, ${differences} differences`);
}
console.log(
  `against ${baseline.commit}: ${differences === 0 ? "identical" : `${differences} differences`} in ${compared} comparisons`,
);
process.exit(differences === 0 ? 0 : 1);
