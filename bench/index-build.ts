// The bm25 index build (the analyser over every skill's text, then the postings) against the same
// ranker at a git commit, as a cold start pays it: each build in a fresh process, whose code V8
// has not optimised yet (its compiler threads' time counted too), the two alternating round by
// round. Without the process start and the file reads around it, it holds up on a busy machine
// better than a spawn-to-answer bench.
//
//   node --import tsx bench/index-build.ts --baseline <git ref> [--size 1566] [--rounds 9]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CatalogSkill } from "../src/skills/catalog.js";
import type { Ranker } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { baselineRanker } from "./baseline-ranker.js";
import { loadSeedSkills, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    size: { type: "string", default: "1566" },
    rounds: { type: "string", default: "9" },
    // Internal: one build in this process, of the catalog in this file, printing its CPU ms.
    child: { type: "string" },
    catalog: { type: "string" },
  },
});
if (values.baseline === undefined) {
  console.error("usage: node --import tsx bench/index-build.ts --baseline <git ref> [--size 1566] [--rounds 9]");
  process.exit(2);
}

if (values.child !== undefined) {
  const create: () => Ranker = values.child === "now" ? () => new Bm25Ranker() : (await baselineRanker(values.baseline)).create;
  const catalog = JSON.parse(readFileSync(values.catalog!, "utf8")) as CatalogSkill[];
  const ranker = create();
  const since = process.cpuUsage();
  ranker.build(catalog);
  const { user, system } = process.cpuUsage(since);
  console.log(((user + system) / 1000).toFixed(1));
  process.exit(0);
}

const size = Number(values.size);
const rounds = Number(values.rounds);
const { commit } = await baselineRanker(values.baseline);
const seed = await loadSeedSkills();
const catalog = [...seed.skills.slice(0, size), ...syntheticCatalog(seed.skills, Math.max(0, size - seed.skills.length))];
const file = join(mkdtempSync(join(tmpdir(), "skills-kernel-index-build-")), "catalog.json");
writeFileSync(file, JSON.stringify(catalog));
const self = fileURLToPath(import.meta.url);
const build = (which: string) =>
  Number(execFileSync(process.execPath, [...process.execArgv, self, "--baseline", values.baseline, "--child", which, "--catalog", file], { encoding: "utf8" }).trim());

const cpu = { now: [] as number[], baseline: [] as number[] };
const load = loadavg()[0]!.toFixed(1);
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? (["now", "baseline"] as const) : (["baseline", "now"] as const)) cpu[name].push(build(name));
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const range = (list: number[]) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)}`;
console.log(`${catalog.length.toLocaleString("en-US")} skills (${seed.origin}), ${rounds} rounds, load average ${load} at start and ${loadavg()[0]!.toFixed(1)} at end`);
console.log(`now: cold build CPU median ${median(cpu.now).toFixed(0)} ms (${range(cpu.now)})`);
console.log(`at ${commit}: cold build CPU median ${median(cpu.baseline).toFixed(0)} ms (${range(cpu.baseline)})`);
console.log(`now / ${commit}: ${(median(cpu.now) / median(cpu.baseline)).toFixed(2)}x`);
