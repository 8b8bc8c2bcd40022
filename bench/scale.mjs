// Serving large catalogs: skills-kernel against two anchor servers (bench/anchors), each spawned
// over stdio and driven by the MCP SDK client, on catalogs written by bench/scale/make-catalog.mjs.
// Per size it measures, with the candidates interleaved run by run:
//   - spawn → first search answer (the kernel's search_skills, the anchors' search);
//   - RSS and idle CPU of each server once it has answered, watching on (the kernel's default), in
//     every run (the median is reported, with the range: V8 gives memory back on its own schedule);
//   - `skills-kernel list` (each kernel build's) against bench/anchors/read-all.mjs, which only
//     reads every SKILL.md (left out with --kernels-only).
//
//   SKILLS_CORPUS=../shared/corpus node bench/scale.mjs [--sizes 1566,10000] [--runs 3] [--idle 20]
//   node bench/scale.mjs --sizes 100000 --runs 1 --settle 90 --kernels-only   # minutes: 100,000 skills, 1.5 GB under /tmp
//   node bench/scale.mjs --baseline /tmp/old/dist/cli.js   # another build beside dist/cli.js, run by run
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { makeCatalog } from "./scale/make-catalog.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1566,10000" },
    runs: { type: "string", default: "3" },
    idle: { type: "string", default: "20" },
    // Seconds between the first answer and the idle window: the kernel arms its watchers then, and
    // V8's memory reducer gives back what start-up left behind once the process is quiet.
    settle: { type: "string", default: "40" },
    // Another build of skills-kernel to measure instead (e.g. one of an older commit).
    kernel: { type: "string", default: "dist/cli.js" },
    // A second build served beside it in the same runs (a before/after), e.g. an older commit's.
    baseline: { type: "string" },
    // Only the kernel builds (and their `list`): at 100,000 the anchors and read-all.mjs open every file at once (EMFILE).
    "kernels-only": { type: "boolean", default: false },
    query: { type: "string", default: "extract tables from pdf files" },
  },
});
const repo = fileURLToPath(new URL("..", import.meta.url));
const node = process.execPath;
const runs = Number(values.runs);
const idleSeconds = Number(values.idle);
const kernel = resolve(repo, values.kernel);
// No config here: the kernel serves exactly --skills-dir with its embedded defaults.
const cwd = mkdtempSync(join(tmpdir(), "skills-kernel-scale-cwd-"));

const candidates = (root) => [
  { name: "skills-kernel", args: [kernel, "--skills-dir", root], tool: "search_skills", cli: kernel },
  ...(values.baseline
    ? [{ name: `skills-kernel ${values.baseline}`, args: [resolve(repo, values.baseline), "--skills-dir", root], tool: "search_skills", cli: resolve(repo, values.baseline) }]
    : []),
  ...(values["kernels-only"]
    ? []
    : [
        { name: "Fuse anchor", args: [join(repo, "bench/anchors/fuse-server.mjs"), root], tool: "search" },
        { name: "MiniSearch anchor", args: [join(repo, "bench/anchors/minisearch-server.mjs"), root], tool: "search" },
      ]),
];

/** utime + stime of a process, in seconds (Linux /proc). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Spawns one server, times its first search answer, then measures its RSS and idle CPU. */
async function serve(candidate) {
  const transport = new StdioClientTransport({ command: node, args: candidate.args, cwd, stderr: "ignore" });
  const client = new Client({ name: "scale-bench", version: "0" });
  const started = performance.now();
  // The anchors read every skill before they answer initialize: at 100,000 that takes minutes.
  await client.connect(transport, { timeout: 600_000 });
  const answer = await client.callTool({ name: candidate.tool, arguments: { query: values.query } }, undefined, { timeout: 600_000 });
  const firstAnswer = performance.now() - started;
  if (answer.isError) throw new Error(`${candidate.name}: ${JSON.stringify(answer.content)}`);
  const pid = transport.pid;
  // CPU time is what a busy machine does not distort: wall time there is mostly waiting for a core.
  const result = { firstAnswer, firstAnswerCpu: cpuSeconds(pid) };
  // Background work after the first answer (the kernel's watchers being armed) is not idle time.
  await sleep(Number(values.settle) * 1000);
  const before = cpuSeconds(pid);
  await sleep(idleSeconds * 1000);
  result.idleCpu = ((cpuSeconds(pid) - before) / idleSeconds) * 100;
  result.rss = rssMb(pid);
  await client.close();
  return result;
}

function time(command, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(command, args, { cwd, maxBuffer: 1 << 30 }, (error) => (error ? reject(error) : resolve(performance.now() - started)));
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => `${Math.round(value)}`;

console.log(
  `# scale benchmark, node ${process.version}, ${runs} interleaved runs, idle window ${idleSeconds} s after ${values.settle} s, kernel ${values.kernel}\n`,
);
for (const size of values.sizes.split(",").map(Number)) {
  const root = await makeCatalog(size, join(tmpdir(), `skills-kernel-scale-${size}`));
  const servers = candidates(root);
  const samples = servers.map(() => []);
  const kernels = servers.filter((candidate) => candidate.cli);
  const lists = { kernels: kernels.map(() => []), readAll: [] };
  for (let run = 0; run < runs; run++) {
    for (const [index, candidate] of servers.entries()) samples[index].push(await serve(candidate));
    for (const [index, candidate] of kernels.entries()) lists.kernels[index].push(await time(node, [candidate.cli, "list", "--skills-dir", root]));
    if (!values["kernels-only"]) lists.readAll.push(await time(node, [join(repo, "bench/anchors/read-all.mjs"), root]));
  }
  const fuseIndex = servers.findIndex((candidate) => candidate.name === "Fuse anchor");
  const fuse = fuseIndex < 0 ? NaN : median(samples[fuseIndex].map((s) => s.firstAnswer));
  console.log(`## ${size.toLocaleString("en")} skills (${root})\n`);
  const fuseCpu = fuseIndex < 0 ? NaN : median(samples[fuseIndex].map((s) => s.firstAnswerCpu));
  // With --kernels-only there is no anchor to compare with.
  const versus = (value, anchor) => (Number.isNaN(anchor) ? "–" : `${(value / anchor).toFixed(2)}x`);
  console.log("| server | spawn → first search answer, median ms | vs Fuse anchor | CPU s until then | vs Fuse anchor | RSS MB, median (range) | idle CPU, % of a core, median |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [index, candidate] of servers.entries()) {
    const first = median(samples[index].map((s) => s.firstAnswer));
    const cpu = median(samples[index].map((s) => s.firstAnswerCpu));
    const rss = samples[index].map((s) => s.rss);
    const range = `${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)}`;
    const idleCpu = median(samples[index].map((s) => s.idleCpu));
    console.log(
      `| ${candidate.name} | ${ms(first)} | ${versus(first, fuse)} | ${cpu.toFixed(2)} | ${versus(cpu, fuseCpu)} | ${median(rss).toFixed(0)} (${range}) | ${idleCpu.toFixed(2)} |`,
    );
  }
  const readAll = values["kernels-only"] ? NaN : median(lists.readAll);
  const versusReadAll = (value) => (Number.isNaN(readAll) ? "–" : `${(value / readAll).toFixed(2)}x`);
  console.log(`\n| command | median ms | vs read-all |\n|---|---:|---:|`);
  for (const [index, candidate] of kernels.entries()) {
    const list = median(lists.kernels[index]);
    console.log(`| ${candidate.name} list | ${ms(list)} | ${versusReadAll(list)} |`);
  }
  if (!Number.isNaN(readAll)) console.log(`| read-all.mjs (every SKILL.md read, nothing else) | ${ms(readAll)} | 1.00x |`);
  console.log("");
}
