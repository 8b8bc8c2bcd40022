// What an agent host gets when it spawns a server and sends `initialize` at once (Claude Code
// does): the time from spawn to the initialize answer, the server's CPU time by then (all its
// threads, /proc/PID/task/*/schedstat; Linux only), and how many skills its instructions name.
// The anchor is bench/fixtures/minimal-server.mjs, the smallest SDK v2 server (McpServer +
// serveStdio, one tool). skills-kernel runs cold (--no-disk-cache) and warm (--cache-dir a folder
// an earlier run filled) on the three example skills and on the 700-skill corpus when it is there;
// `--cli OTHER/dist/cli.js` adds another build (main before a change) in the same runs. Runs
// interleave, reversed every other round; prints medians, ratios to the anchor and the load average.
//
//   npm run build && node bench/initialize.mjs [--runs 10] [--cli OTHER/dist/cli.js ...]
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { values } = parseArgs({
  options: { runs: { type: "string", default: "10" }, cli: { type: "string", multiple: true, default: [] } },
});
const corpus = here("../../shared/corpus");
const catalogs = [["3 example skills", here("../examples/skills")]];
if (existsSync(corpus)) catalogs.push(["700-skill corpus", corpus]);
else console.log("(../shared/corpus is absent: its rows are left out)");

const builds = [["this tree", here("../dist/cli.js")], ...values.cli.map((cli) => [cli, resolve(cli)])];
const caches = mkdtempSync(join(tmpdir(), "bench-initialize-"));
const candidates = [{ name: "anchor: minimal SDK v2 server", args: [here("fixtures/minimal-server.mjs")] }];
for (const [catalog, root] of catalogs) {
  for (const [build, cli] of builds) {
    candidates.push({ name: `${build}, ${catalog}, cold`, args: [cli, "--skills-dir", root, "--no-disk-cache"] });
    const cacheDir = join(caches, `${candidates.length}`);
    candidates.push({
      name: `${build}, ${catalog}, warm`,
      args: [cli, "--skills-dir", root, "--cache-dir", cacheDir],
      warmUp: true,
    });
  }
}

const cpuMs = (pid) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6,
    0,
  );

/** Lines of the instructions that name a skill: `- id: …` (a listing) or an indented example. */
const named = (instructions = "") => instructions.split("\n").filter((line) => /^ *- [^ ]+: /.test(line)).length;

/** [ms from spawn to the initialize answer, CPU ms by then, skills named]; resolves once the process has exited. */
function once({ args }) {
  return new Promise((done, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"], cwd: tmpdir() });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")}: no answer in 30 s`));
    }, 30_000);
    let buffer = "";
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffer += chunk;
      const end = buffer.indexOf("\n");
      if (end < 0) return;
      const { result, error } = JSON.parse(buffer.slice(0, end));
      if (error) reject(new Error(`${args.join(" ")}: ${error.message}`));
      const sample = [performance.now() - start, cpuMs(child.pid), named(result.instructions)];
      clearTimeout(timer);
      // Let it stop (and write its cache) before the next spawn, so that two servers never overlap.
      child.on("exit", () => done(sample));
      child.stdin.end();
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
      })}\n`,
    );
  });
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (const candidate of candidates) if (candidate.warmUp) await once(candidate);
const loadBefore = loadavg()[0];
const results = candidates.map(() => []);
for (let round = 0; round < Number(values.runs); round++) {
  const order = candidates.map((_, index) => index);
  for (const index of round % 2 ? order.reverse() : order) results[index].push(await once(candidates[index]));
}
const loadAfter = loadavg()[0];
const column = (index, at) => median(results[index].map((sample) => sample[at]));
console.log(
  `${values.runs} interleaved runs each, node ${process.version}, load average ${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)}\n`,
);
console.log("| server | initialize answer ms | vs anchor | CPU ms by then | vs anchor | skills named |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [index, candidate] of candidates.entries()) {
  const [wall, cpu, names] = [0, 1, 2].map((at) => column(index, at));
  console.log(
    `| ${candidate.name} | ${wall.toFixed(0)} | ${(wall / column(0, 0)).toFixed(2)}x | ${cpu.toFixed(0)} | ${(cpu / column(0, 1)).toFixed(2)}x | ${names} |`,
  );
}
