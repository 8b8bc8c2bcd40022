// The bm25 index build (the analyser over every skill's text, then the postings) against the same
// ranker at a git commit, alternating round by round in one process: what a cold start spends on
// search before its first answer, without the process start and the file reads around it, so it
// holds up on a busy machine better than a spawn-to-answer bench.
//
//   node --import tsx bench/index-build.ts --baseline <git ref> [--size 1566] [--rounds 9]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { Ranker } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { baselineRanker } from "./baseline-ranker.js";
import { loadSeedSkills, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: { baseline: { type: "string" }, size: { type: "string", default: "1566" }, rounds: { type: "string", default: "9" } },
});
if (values.baseline === undefined) {
  console.error("usage: node --import tsx bench/index-build.ts --baseline <git ref> [--size 1566] [--rounds 9]");
  process.exit(2);
}
const size = Number(values.size);
const rounds = Number(values.rounds);
const baseline = await baselineRanker(values.baseline);
const seed = await loadSeedSkills();
const catalog = [...seed.skills.slice(0, size), ...syntheticCatalog(seed.skills, Math.max(0, size - seed.skills.length))];
const create: Record<"now" | "baseline", () => Ranker> = { now: () => new Bm25Ranker(), baseline: baseline.create };

// Each build in a fresh ranker, as a starting server has: its word table starts empty.
for (const make of Object.values(create)) make().build(catalog);
const cpu = { now: [] as number[], baseline: [] as number[] };
const load = loadavg()[0]!.toFixed(1);
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? (["now", "baseline"] as const) : (["baseline", "now"] as const)) {
    const ranker = create[name]();
    const since = process.cpuUsage();
    ranker.build(catalog);
    const { user, system } = process.cpuUsage(since);
    cpu[name].push((user + system) / 1000);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const range = (list: number[]) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)}`;
console.log(`${catalog.length.toLocaleString("en-US")} skills (${seed.origin}), ${rounds} rounds, load average ${load} at start and ${loadavg()[0]!.toFixed(1)} at end`);
console.log(`now: build CPU median ${median(cpu.now).toFixed(0)} ms (${range(cpu.now)})`);
console.log(`at ${baseline.commit}: build CPU median ${median(cpu.baseline).toFixed(0)} ms (${range(cpu.baseline)})`);
console.log(`now / ${baseline.commit}: ${(median(cpu.now) / median(cpu.baseline)).toFixed(2)}x`);
