// Search speed over synthetic catalogs of 1,000, 10,000 and 100,000 skills derived from the corpus:
// index build time, heap and typed arrays (whose contents live outside the heap), and search
// latency (p50, p99) for the default ranker and for `fuse`, measured side by side in one run so
// machine noise hits both alike (docs/benchmarks.md). A change to the ranker is measured against
// the ranker at a git commit with bench/search-baseline.ts, which alternates the two and nothing
// else (the probes here run back to back and warm each other's caches).
//
//   npm run bench:search [-- --sizes 1000,10000,100000] [--runs 5]
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CatalogSkill } from "../src/skills/catalog/catalog-types.js";
import type { Ranker } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { FuseRanker } from "../src/plugins/rankers/ranker-fuse/ranker.js";
import { loadSeedSkills, SHARED, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000,100000" },
    runs: { type: "string", default: "5" },
  },
});
const sizes = values.sizes.split(",").map(Number);
const runs = Number(values.runs);
const QUERIES = join(SHARED, "search-eval/queries.tsv");
const GENERALISE = join(SHARED, "search-eval/queries-generalise.tsv");

if (!global.gc) {
  console.error("run with node --expose-gc (npm run bench:search does) to measure heap");
  process.exit(2);
}
const gc = global.gc;

/** The evaluation's real queries; without them, three description words of 120 seed skills. */
function loadQueries(seed: readonly CatalogSkill[]): { origin: string; queries: string[] } {
  if (existsSync(QUERIES)) {
    const queries = [QUERIES, GENERALISE].filter(existsSync).flatMap((file) => {
      const rows = readFileSync(file, "utf8").trim().split("\n");
      const column = rows[0]!.split("\t").indexOf("query");
      return rows.slice(1).map((row) => row.split("\t")[column]!);
    });
    return { origin: `the ${queries.length} queries of ../shared/search-eval (both sets)`, queries };
  }
  const queries = seed.slice(0, 120).map((skill) =>
    skill.description
      .split(/\s+/)
      .filter((w) => w.length > 3)
      .slice(1, 4)
      .join(" "),
  );
  return { origin: "three description words of each of 120 seed skills (../shared/search-eval is absent)", queries };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** A way to search: a ranker, how many results each search asks for, and whether it counts every match. */
interface Probe {
  readonly label: string;
  readonly ranker: string;
  readonly limit: (catalogSize: number) => number;
  readonly count?: boolean;
}

const rankers: Record<string, () => Ranker> = { bm25: () => new Bm25Ranker(), fuse: () => new FuseRanker() };

const probes: Probe[] = [
  { label: "bm25 (default), top 5", ranker: "bm25", limit: () => 5 },
  // What search_skills does: the top 5 and one more (for the label of the fifth), and the count.
  { label: "bm25, top 6 + count (search_skills)", ranker: "bm25", limit: () => 6, count: true },
  // The baseline: search_skills before, which ranked every match to count them.
  { label: "bm25, every match ranked (before)", ranker: "bm25", limit: (n) => n },
  { label: "fuse", ranker: "fuse", limit: () => 5 },
];

/** Fuse takes about a quarter of a second per query at 10,000 skills: it is timed on a sample there. */
function fuseSample(size: number): number {
  return size <= 1000 ? 1 : size <= 10_000 ? 4 : 20;
}

interface Measured {
  build: Record<string, number[]>;
  /** Build CPU time (user + system, ms): what load on a shared machine disturbs least. */
  buildCpu: Record<string, number[]>;
  heap: Record<string, number>;
  /** Typed arrays' backing stores, which live outside the heap (process.memoryUsage().arrayBuffers). */
  arrays: Record<string, number>;
  search: Map<Probe, number[]>;
  /** CPU time of every timed search of a probe, summed (ms). */
  searchCpu: Map<Probe, number>;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

/**
 * Builds alternate between the rankers, and so do searches (query by query), so a burst of load
 * on the machine slows both alike.
 */
function measure(catalog: readonly CatalogSkill[], queries: readonly string[]): Measured {
  const names = Object.keys(rankers);
  const measured: Measured = {
    build: Object.fromEntries(names.map((name) => [name, []])),
    buildCpu: Object.fromEntries(names.map((name) => [name, []])),
    heap: Object.fromEntries(names.map((name) => [name, 0])),
    arrays: Object.fromEntries(names.map((name) => [name, 0])),
    search: new Map(probes.map((p) => [p, []])),
    searchCpu: new Map(probes.map((p) => [p, 0])),
  };
  const built: Record<string, Ranker | undefined> = {};
  const buildRuns = catalog.length >= 100_000 ? Math.min(runs, 3) : runs;
  for (let run = 0; run < buildRuns; run++) {
    // The order rotates too, so none always builds first.
    for (let k = 0; k < names.length; k++) {
      const name = names[(run + k) % names.length]!;
      built[name] = undefined;
      gc();
      const before = process.memoryUsage();
      const ranker = rankers[name]!();
      const started = performance.now();
      const cpu = process.cpuUsage();
      ranker.build(catalog);
      measured.buildCpu[name]!.push(cpuMs(cpu));
      measured.build[name]!.push(performance.now() - started);
      gc();
      const after = process.memoryUsage();
      measured.heap[name] = Math.max(measured.heap[name]!, after.heapUsed - before.heapUsed);
      measured.arrays[name] = Math.max(measured.arrays[name]!, after.arrayBuffers - before.arrayBuffers);
      built[name] = ranker;
    }
  }
  const every = fuseSample(catalog.length);
  // An untimed pass warms the JIT and the analyzer's word cache for bm25; then rounds of every
  // query, each through every probe, in an order that rotates so none always goes first.
  for (const query of queries) built.bm25!.search(query, { limit: 5 });
  for (const query of queries.slice(0, 3)) built.fuse!.search(query, { limit: 5 });
  const rounds = catalog.length >= 100_000 ? 1 : runs;
  for (let round = 0; round < rounds; round++) {
    queries.forEach((query, i) => {
      for (let k = 0; k < probes.length; k++) {
        const probe = probes[(i + k) % probes.length]!;
        if (probe.ranker === "fuse" && (i % every !== 0 || (round > 0 && every > 1))) continue;
        const ranker = built[probe.ranker]!;
        const started = performance.now();
        const cpu = process.cpuUsage();
        ranker.search(query, { limit: probe.limit(catalog.length) });
        if (probe.count) ranker.count!(query, {});
        measured.searchCpu.set(probe, measured.searchCpu.get(probe)! + cpuMs(cpu));
        measured.search.get(probe)!.push(performance.now() - started);
      }
    });
  }
  return measured;
}

async function main(): Promise<void> {
  const seed = await loadSeedSkills();
  const { origin, queries } = loadQueries(seed.skills);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
  console.log(
    `Seed: ${seed.origin}. Queries: ${origin}. Node ${process.version}, ${runs} runs, load average at start ${load}.\n`,
  );
  const lines = [
    "| skills | ranker | build ms (median) | build CPU ms (median) | heap MB | typed arrays MB | search p50 ms | search p99 ms | search CPU µs (mean) | searches timed |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const ratios = [
    "| skills | fuse p50 / bm25 p50, top 5 | before / search_skills now, p50 | before / search_skills now, p99 | bm25 build / fuse build |",
    "|---:|---:|---:|---:|---:|",
  ];
  for (const size of sizes) {
    const catalog = [
      ...seed.skills.slice(0, size),
      ...syntheticCatalog(seed.skills, Math.max(0, size - seed.skills.length)),
    ];
    const { build, buildCpu, heap, arrays, search, searchCpu } = measure(catalog, queries);
    const meanCpu = (probe: Probe) => (searchCpu.get(probe)! / search.get(probe)!.length) * 1000;
    for (const probe of probes) {
      const times = search.get(probe)!;
      const cells = [
        size.toLocaleString("en-US"),
        probe.label,
        quantile(build[probe.ranker]!, 0.5).toFixed(0),
        quantile(buildCpu[probe.ranker]!, 0.5).toFixed(0),
        (heap[probe.ranker]! / 2 ** 20).toFixed(1),
        (arrays[probe.ranker]! / 2 ** 20).toFixed(1),
        quantile(times, 0.5).toFixed(2),
        quantile(times, 0.99).toFixed(2),
        meanCpu(probe).toFixed(0),
        times.length,
      ];
      lines.push(`| ${cells.join(" | ")} |`);
    }
    const at = (probe: Probe, q: number) => quantile(search.get(probe)!, q);
    const [top5, tool, every, fuse] = probes as [Probe, Probe, Probe, Probe];
    const cells = [
      size.toLocaleString("en-US"),
      `${(at(fuse, 0.5) / at(top5, 0.5)).toFixed(0)}x`,
      `${(at(every, 0.5) / at(tool, 0.5)).toFixed(2)}x`,
      `${(at(every, 0.99) / at(tool, 0.99)).toFixed(2)}x`,
      `${(quantile(build.bm25!, 0.5) / quantile(build.fuse!, 0.5)).toFixed(1)}x`,
    ];
    ratios.push(`| ${cells.join(" | ")} |`);
  }
  console.log(lines.join("\n"));
  console.log(`\nRatios of medians from this run (search: how many times faster bm25 is):\n\n${ratios.join("\n")}`);
  console.log(
    `\nLoad average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}.`,
  );
}

await main();
