// Cold start: spawn a server, send initialize and tools/list over stdio as raw JSON-RPC, and time
// until the tools/list answer arrives. Runs the candidates interleaved in one session so machine
// noise hits them alike, and reports medians and ratios (docs/benchmarks.md).
//
//   npm run bench:cold-start [-- --runs 30]
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "30" } } });
const runs = Number(values.runs);
const root = fileURLToPath(new URL("..", import.meta.url));
const node = process.execPath;

const candidates = [
  { name: "minimal McpServer, one tool (baseline)", command: node, args: ["bench/fixtures/minimal-server.mjs"] },
  {
    name: "skills-kernel, TypeScript config plugins.config.ts (jiti), every tool",
    command: node,
    args: ["dist/cli.js", "--config", "plugins.config.ts"],
  },
  {
    name: "skills-kernel --skills-dir examples/skills (no config search: embedded default tools)",
    command: node,
    args: ["dist/cli.js", "--skills-dir", "examples/skills"],
  },
  {
    name: "skills-kernel, JSON config, every tool",
    command: node,
    args: ["dist/cli.js", "--config", "bench/fixtures/examples.config.json"],
  },
  {
    name: "skills-kernel, JSON config, fs + list-skills only",
    command: node,
    args: ["dist/cli.js", "--config", "bench/fixtures/list-only.config.json"],
  },
];
const corpus = fileURLToPath(new URL("../../shared/corpus", import.meta.url));
if (existsSync(corpus)) {
  candidates.push({
    name: "skills-kernel --skills-dir ../shared/corpus (700 skills)",
    command: node,
    args: ["dist/cli.js", "--skills-dir", corpus],
  });
} else {
  console.log("(../shared/corpus is absent: its row is left out)");
}

function once({ command, args }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
    let buffered = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")}: no tools/list answer in 10 s`));
    }, 10_000);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (message.id === 1) {
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) + "\n");
        } else if (message.id === 2) {
          const elapsed = performance.now() - started;
          clearTimeout(timer);
          child.stdin.end();
          child.on("close", () => resolve(elapsed));
        }
      }
    });
    child.on("error", reject);
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
      }) + "\n",
    );
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const samples = candidates.map(() => []);
for (let i = 0; i < runs; i++) {
  for (const [index, candidate] of candidates.entries()) samples[index].push(await once(candidate));
}
const baseline = quantile(
  [...samples[0]].sort((a, b) => a - b),
  0.5,
);
console.log(`cold start, spawn to tools/list answer, ${runs} interleaved runs each (node ${process.version})\n`);
console.log("| server | median ms | p90 ms | median vs baseline |");
console.log("|---|---:|---:|---:|");
for (const [index, candidate] of candidates.entries()) {
  const sorted = [...samples[index]].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  console.log(
    `| ${candidate.name} | ${median.toFixed(0)} | ${quantile(sorted, 0.9).toFixed(0)} | ${(median / baseline).toFixed(2)}x |`,
  );
}
