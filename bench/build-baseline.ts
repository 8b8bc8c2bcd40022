// The bm25 index build against the same ranker at a git commit, each built once in a fresh
// process (the first build of a process, as the server does it), the two strictly alternating so
// that a shared machine's load falls on both alike. Prints every build's wall and CPU time
// (process.cpuUsage, which counts the collector's and compiler's threads too) and the medians.
//
//   node --import tsx bench/build-baseline.ts --baseline <git ref> [--size 10000] [--runs 10]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Ranker } from "../src/skills/types.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { baselineRanker } from "./baseline-ranker.js";
import { loadSeedSkills, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    size: { type: "string", default: "10000" },
    runs: { type: "string", default: "10" },
    child: { type: "string" },
  },
});
if (values.baseline === undefined) {
  console.error("usage: node --import tsx bench/build-baseline.ts --baseline <git ref> [--size 10000] [--runs 10]");
  process.exit(2);
}
const size = Number(values.size);

if (values.child !== undefined) {
  // One build, printed as JSON for the parent.
  const create: () => Ranker =
    values.child === "baseline" ? (await baselineRanker(values.baseline)).create : () => new Bm25Ranker();
  const catalog = syntheticCatalog((await loadSeedSkills()).skills, size);
  const ranker = create();
  const start = performance.now();
  const cpu = process.cpuUsage();
  ranker.build(catalog);
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ ms: performance.now() - start, cpu: (used.user + used.system) / 1000 }));
} else {
  const { commit } = await baselineRanker(values.baseline);
  const script = fileURLToPath(import.meta.url);
  const times: Record<string, { ms: number; cpu: number }[]> = { current: [], baseline: [] };
  for (let run = 0; run < Number(values.runs); run++) {
    for (const side of run % 2 === 0 ? ["baseline", "current"] : ["current", "baseline"]) {
      const args = ["--import", "tsx", script, "--baseline", commit, "--size", String(size), "--child", side];
      const result = JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" })) as {
        ms: number;
        cpu: number;
      };
      times[side]!.push(result);
      console.log(`${side.padEnd(8)} build ${result.ms.toFixed(0)} ms, CPU ${result.cpu.toFixed(0)} ms`);
    }
  }
  const median = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const [current, baseline] = [times.current!, times.baseline!];
  const ratio = (pick: (t: { ms: number; cpu: number }) => number) =>
    (median(current.map(pick)) / median(baseline.map(pick))).toFixed(3);
  console.log(
    `${size} skills, ${values.runs} runs: baseline ${commit} median ${median(baseline.map((t) => t.ms)).toFixed(0)} ms, CPU ${median(baseline.map((t) => t.cpu)).toFixed(0)} ms; ` +
      `current median ${median(current.map((t) => t.ms)).toFixed(0)} ms, CPU ${median(current.map((t) => t.cpu)).toFixed(0)} ms; ` +
      `current / baseline: wall ${ratio((t) => t.ms)}, CPU ${ratio((t) => t.cpu)}`,
  );
}
