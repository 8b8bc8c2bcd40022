// Spawn → first search answer, in CPU time: spawns `node CLI --skills-dir ROOT` for each build,
// sends initialize then a search_skills call over raw JSON-RPC, and at the answer reads the
// server's CPU time from /proc/PID/task/*/schedstat (ns; /proc/PID/stat counts 10 ms ticks).
// Builds alternate, in reversed order every other round, so machine noise hits them alike; prints
// medians and the median of each round's difference from the first build (docs/benchmarks.md).
// Linux only.
//
//   node bench/first-answer-cpu.mjs --runs 30 --root /tmp/catalog before/dist/cli.js dist/cli.js
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

const { values, positionals: clis } = parseArgs({
  options: { runs: { type: "string", default: "20" }, root: { type: "string" } },
  allowPositionals: true,
});
if (!values.root || clis.length === 0) throw new Error("usage: --root CATALOG [--runs N] CLI...");

const cpuMs = (pid, task) => Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6;

function firstAnswer(cli) {
  return new Promise((done, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [resolve(cli), "--skills-dir", resolve(values.root)], {
      stdio: ["pipe", "pipe", "ignore"],
      cwd: tmpdir(),
    });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    let buffer = "";
    child.on("error", reject);
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (let end; (end = buffer.indexOf("\n")) >= 0; buffer = buffer.slice(end + 1)) {
        const { id } = JSON.parse(buffer.slice(0, end));
        if (id === 1) {
          send({ method: "notifications/initialized" });
          send({
            id: 2,
            method: "tools/call",
            params: { name: "search_skills", arguments: { query: "extract tables from pdf files" } },
          });
        } else if (id === 2) {
          const answer = performance.now() - start;
          const tasks = readdirSync(`/proc/${child.pid}/task`);
          const figures = [
            answer,
            cpuMs(child.pid, child.pid),
            tasks.reduce((sum, task) => sum + cpuMs(child.pid, task), 0),
          ];
          // Let it stop before the next spawn, so that two servers never overlap.
          child.on("exit", () => done(figures));
          child.stdin.end();
        }
      }
    });
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
    });
  });
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const results = clis.map(() => []);
for (let round = 0; round < Number(values.runs); round++) {
  const order = clis.map((_, index) => index);
  for (const index of round % 2 ? order.reverse() : order) results[index].push(await firstAnswer(clis[index]));
}
const columns = ["answer ms", "main-thread CPU ms", "process CPU ms"];
for (const [index, cli] of clis.entries()) {
  const paired =
    index === 0
      ? ""
      : `; paired vs first: ${columns.map((_name, c) => `${median(results[index].map((r, round) => r[c] - results[0][round][c])).toFixed(1)}`).join(" / ")}`;
  console.log(
    `${cli}: ${columns.map((name, c) => `${name} ${median(results[index].map((r) => r[c])).toFixed(1)}`).join(", ")}${paired}`,
  );
}
