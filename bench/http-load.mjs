// HTTP load: 100 concurrent clients calling search_skills on `serve --transport http --stateless`
// for 30 s (autocannon), beside a bare node:http JSON server measured in the same run as the
// ceiling. Loopback only. Reports p50, p99, throughput, errors, and the server's RSS sampled
// every second (docs/benchmarks.md).
//
//   npm run build && npm run bench:http-load -- [--duration 30] [--connections 100] [--runtime node|bun|deno] [--skills-dir DIR]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "30" },
    connections: { type: "string", default: "100" },
    runtime: { type: "string", default: "node" },
    "skills-dir": { type: "string" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = fileURLToPath(new URL("..", import.meta.url));
const runtimes = {
  node: [process.execPath],
  bun: [fileURLToPath(new URL("../node_modules/.bin/bun", import.meta.url))],
  deno: [fileURLToPath(new URL("../node_modules/.bin/deno", import.meta.url)), "run", "-A", "--quiet"],
};
// The shared corpus next to the checkout when there is one, else the three example skills.
const corpus = fileURLToPath(new URL("../../shared/corpus", import.meta.url));
const skillsDir = values["skills-dir"] ?? (existsSync(corpus) ? corpus : fileURLToPath(new URL("../examples/skills", import.meta.url)));

// Queries an agent might send, cycled so the ranker does real work rather than one cached path.
const QUERIES = [
  "extract tables from pdf files", "write a commit message", "review a README", "release notes from merged pull requests",
  "convert docx to markdown", "build a react component", "analyze a csv with pandas", "create a powerpoint deck",
  "test a web app with playwright", "design a rest api", "write unit tests", "summarize a long document",
  "deploy to kubernetes", "optimize sql queries", "draw a diagram", "translate a document", "scrape a website",
  "fill a pdf form", "create an excel chart", "debug a python error",
];

function start(command, args) {
  const child = spawn(command[0], [...command.slice(1), ...args], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve({ child, url: match[1] });
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

/** RSS of a process in MiB, from /proc (Linux). */
function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function load(name, url, pid) {
  let next = 0;
  const body = () =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_skills", arguments: { query: QUERIES[next++ % QUERIES.length] } } });
  const rss = [];
  const sampler = setInterval(() => rss.push(rssMiB(pid)), 1000);
  const result = await autocannon({
    url,
    connections,
    duration,
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  clearInterval(sampler);
  const half = Math.floor(rss.length / 2);
  console.log(`${name}: RSS MiB each second: ${rss.map((x) => x.toFixed(0)).join(" ")}`);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    name,
    requests: result.requests.total,
    throughput: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: `${result.errors + result.non2xx} (${result.timeouts} timeouts, ${result.non2xx} non-2xx)`,
    rss: { first: rss[0], max: Math.max(...rss), firstHalf: mean(rss.slice(0, half)), secondHalf: mean(rss.slice(half)) },
  };
}

async function measure(name, command, args) {
  const { child, url } = await start(command, args);
  try {
    // Warm up, unmeasured: after /readyz the server still builds its search index and starts
    // watching the skill folders; start-up is not what this measures.
    if (args.includes("http")) {
      for (let i = 0; i < 600 && (await fetch(new URL("/readyz", url))).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    }
    await autocannon({
      url,
      connections: 10,
      duration: 5,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_skills", arguments: { query: "warm up" } } }),
    });
    return await load(name, url, child.pid);
  } finally {
    child.kill("SIGTERM");
  }
}

console.log(`${connections} connections, ${duration} s each, skills from ${skillsDir}, server on ${values.runtime}`);
const ceiling = await measure("bare node:http JSON server (ceiling)", [process.execPath], ["bench/fixtures/bare-json-server.mjs"]);
const kernel = await measure(
  `skills-kernel serve --transport http --stateless (${values.runtime})`,
  runtimes[values.runtime],
  ["dist/cli.js", "serve", "--transport", "http", "--stateless", "--port", "0", "--skills-dir", skillsDir],
);

console.log("| server | requests | req/s (mean) | p50 ms | p99 ms | errors | RSS MiB: start / max / 1st-half mean / 2nd-half mean |");
console.log("|---|---|---|---|---|---|---|");
for (const r of [ceiling, kernel]) {
  const rss = [r.rss.first, r.rss.max, r.rss.firstHalf, r.rss.secondHalf].map((x) => x.toFixed(0)).join(" / ");
  console.log(`| ${r.name} | ${r.requests} | ${r.throughput.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${rss} |`);
}
console.log(`throughput ratio (kernel / ceiling): ${(kernel.throughput / ceiling.throughput).toFixed(2)}`);
