// Cold start beside a plain SDK v2 server doing the same job: spawn each server over stdio, open
// the connection (2025-11-25 initialize, or a 2026-07-28 request with its _meta envelope), and
// time from spawn to the first tools/list answer and to the first search answer. The anchor is
// bench/anchors/minisearch-server.mjs (v2 McpServer + serveStdio, one search tool over MiniSearch,
// every SKILL.md read at start) on the same catalog. Other skills-kernel builds (main before a
// change) are compared with --cli (a build that knows --no-disk-cache). Runs interleave, reversed
// every other round, so machine noise hits all alike; prints medians, each build's median against
// the anchor's, and the load average.
// On a loaded machine wall-clock times mostly measure the wait for a core, so the server's CPU time
// up to the search answer (all its threads, from /proc/PID/task/*/schedstat; Linux only) is
// printed beside them.
//
//   node bench/cold-start-anchor.mjs [--runs 20] [--root CATALOG] [--revision 2025-11-25|2026-07-28] [--cli OTHER/dist/cli.js ...]
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const corpus = here("../../shared/corpus");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    root: { type: "string", default: existsSync(corpus) ? corpus : here("../examples/skills") },
    revision: { type: "string", default: "2025-11-25" },
    cli: { type: "string", multiple: true, default: [] },
  },
});
const root = resolve(values.root);
const modern = values.revision === "2026-07-28";
const QUERY = "extract tables from pdf files";

const candidates = [
  {
    name: "anchor: SDK v2 McpServer + serveStdio, MiniSearch",
    args: [here("anchors/minisearch-server.mjs"), root],
    tool: "search",
  },
  // --no-disk-cache: a cold start, every SKILL.md read and the index built, as the anchor does
  // (the default cache folder would make every run after the first a warm start).
  {
    name: "skills-kernel (this tree)",
    args: [here("../dist/cli.js"), "--skills-dir", root, "--no-disk-cache"],
    tool: "search_skills",
  },
  ...values.cli.map((cli) => ({
    name: `skills-kernel ${cli}`,
    args: [resolve(cli), "--skills-dir", root, "--no-disk-cache"],
    tool: "search_skills",
  })),
];

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

const cpuMs = (pid) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6,
    0,
  );

/** [ms to the tools/list answer, ms to the search answer, both from spawn; CPU ms up to the search answer]. */
function once({ args, tool }) {
  return new Promise((done, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"], cwd: tmpdir() });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    const params = (more = {}) => (modern ? { ...more, _meta: envelope } : more);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")}: no answer in 30 s`));
    }, 30_000);
    const times = [];
    let buffer = "";
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffer += chunk;
      for (let end; (end = buffer.indexOf("\n")) >= 0; buffer = buffer.slice(end + 1)) {
        const { id, error } = JSON.parse(buffer.slice(0, end));
        if (error) reject(new Error(`${args.join(" ")}: ${error.message}`));
        if (id === 1) {
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/list", params: params() });
        } else if (id === 2) {
          times.push(performance.now() - start);
          send({ id: 3, method: "tools/call", params: params({ name: tool, arguments: { query: QUERY } }) });
        } else if (id === 3) {
          times.push(performance.now() - start, cpuMs(child.pid));
          clearTimeout(timer);
          // Let it stop before the next spawn, so that two servers never overlap.
          child.on("exit", () => done(times));
          child.stdin.end();
        }
      }
    });
    if (modern) send({ id: 2, method: "tools/list", params: params() });
    else
      send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
      });
  });
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const loadBefore = loadavg()[0];
const results = candidates.map(() => []);
for (let round = 0; round < Number(values.runs); round++) {
  const order = candidates.map((_, index) => index);
  for (const index of round % 2 ? order.reverse() : order) results[index].push(await once(candidates[index]));
}
const loadAfter = loadavg()[0];
const anchor = [0, 1, 2].map((column) => median(results[0].map((r) => r[column])));
console.log(
  `${root}, ${values.revision}, ${values.runs} interleaved runs each, node ${process.version}, load average ${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)}\n`,
);
console.log(
  "| server | tools/list ms | vs anchor | first search ms | vs anchor | CPU ms to the search answer | vs anchor |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [index, candidate] of candidates.entries()) {
  const cells = [0, 1, 2].map((column) => {
    const value = median(results[index].map((r) => r[column]));
    return `${value.toFixed(0)} | ${(value / anchor[column]).toFixed(2)}x`;
  });
  console.log(`| ${candidate.name} | ${cells.join(" | ")} |`);
}
