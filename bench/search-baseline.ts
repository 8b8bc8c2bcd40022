// search_skills' probe (a search for the top 6, then the count) of the bm25 ranker against the
// same ranker at a git commit, strictly alternating query by query in one process and nothing
// else in between. bench/search.ts's --baseline column runs three probes of the current ranker on
// each query back to back (warm caches) and one of the baseline: with identical code it reads the
// current ranker 1.25x faster at 100,000 skills. Here identical code reads 0.96x to 1.00x.
//
//   node --import tsx bench/search-baseline.ts --baseline <git ref> [--size 100000] [--rounds 5]
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Ranker } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { baselineRanker } from "./baseline-ranker.js";
import { loadSeedSkills, SHARED, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    size: { type: "string", default: "100000" },
    rounds: { type: "string", default: "5" },
  },
});
if (values.baseline === undefined) {
  console.error("usage: node --import tsx bench/search-baseline.ts --baseline <git ref> [--size 100000] [--rounds 5]");
  process.exit(2);
}
const size = Number(values.size);
const rounds = Number(values.rounds);
const baseline = await baselineRanker(values.baseline);

const files = ["queries.tsv", "queries-generalise.tsv"]
  .map((file) => join(SHARED, "search-eval", file))
  .filter(existsSync);
if (files.length === 0) {
  console.error("../shared/search-eval is absent: there are no queries to time");
  process.exit(2);
}
const queries = files.flatMap((file) => {
  const rows = readFileSync(file, "utf8").trim().split("\n");
  const column = rows[0]!.split("\t").indexOf("query");
  return rows.slice(1).map((row) => row.split("\t")[column]!);
});
const seed = await loadSeedSkills();
const catalog = [
  ...seed.skills.slice(0, size),
  ...syntheticCatalog(seed.skills, Math.max(0, size - seed.skills.length)),
];
const rankers: Record<"now" | "baseline", Ranker> = { now: new Bm25Ranker(), baseline: baseline.create() };
for (const ranker of Object.values(rankers)) {
  ranker.build(catalog);
  for (const query of queries) ranker.search(query, { limit: 6 });
}

const times = { now: [] as number[], baseline: [] as number[] };
const cpu = { now: 0, baseline: 0 };
const load = loadavg()[0]!.toFixed(1);
for (let round = 0; round < rounds; round++) {
  queries.forEach((query, i) => {
    // Which goes first alternates from query to query.
    for (const name of i % 2 === 0 ? (["now", "baseline"] as const) : (["baseline", "now"] as const)) {
      const started = performance.now();
      const since = process.cpuUsage();
      rankers[name].search(query, { limit: 6 });
      rankers[name].count!(query, {});
      const { user, system } = process.cpuUsage(since);
      cpu[name] += (user + system) / 1000;
      times[name].push(performance.now() - started);
    }
  });
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * values.length)]!;
console.log(
  `${size.toLocaleString("en-US")} skills, ${queries.length} queries x ${rounds} rounds, load average ${load} at start and ${loadavg()[0]!.toFixed(1)} at end`,
);
for (const name of ["now", "baseline"] as const) {
  const label = name === "now" ? "now" : `at ${baseline.commit}`;
  console.log(
    `${label}: p50 ${quantile(times[name], 0.5).toFixed(2)} ms, p99 ${quantile(times[name], 0.99).toFixed(2)} ms, CPU ${(cpu[name] / times[name].length).toFixed(2)} ms per search`,
  );
}
console.log(
  `${baseline.commit} / now: p50 ${(quantile(times.baseline, 0.5) / quantile(times.now, 0.5)).toFixed(2)}x, CPU ${(cpu.baseline / cpu.now).toFixed(2)}x`,
);
