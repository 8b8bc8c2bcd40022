// HTTP load: 100 concurrent clients calling search_skills on `serve --transport http --stateless`
// for 30 s (autocannon), beside a bare node:http JSON server measured in the same run as the
// ceiling. Loopback only. Reports p50, p99, throughput, errors, the server's CPU time (user+sys)
// per request, which other work on the machine disturbs less than throughput does, and its RSS
// sampled every second (docs/benchmarks.md). `--mode stateful` opens one session per connection
// first and calls the tool through it.
//
//   npm run build && npm run bench:http-load -- [--duration 30] [--connections 100] [--runtime node|bun|deno] [--mode stateless|stateful] [--skills-dir DIR]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "30" },
    connections: { type: "string", default: "100" },
    runtime: { type: "string", default: "node" },
    mode: { type: "string", default: "stateless" },
    "skills-dir": { type: "string" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = fileURLToPath(new URL("..", import.meta.url));
const runtimes = {
  node: [process.execPath],
  bun: [fileURLToPath(new URL("../test/runtimes/node_modules/.bin/bun", import.meta.url))],
  deno: [fileURLToPath(new URL("../test/runtimes/node_modules/.bin/deno", import.meta.url)), "run", "-A", "--quiet"],
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

/** CPU time (user+sys) a process has used, in ms, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** RSS of a process in MiB, from /proc (Linux). */
function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A session's headers: initialize, then the initialized notification, as a client does. */
async function openSession(url) {
  const initialize = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "http-load", version: "1" } },
    }),
  });
  await initialize.text();
  const headers = { ...HEADERS, "mcp-session-id": initialize.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-06-18" };
  const initialized = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  await initialized.text();
  return headers;
}

async function load(name, url, pid, sessions) {
  let next = 0;
  let connection = 0;
  const body = () =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_skills", arguments: { query: QUERIES[next++ % QUERIES.length] } } });
  const rss = [];
  const sampler = setInterval(() => rss.push(rssMiB(pid)), 1000);
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url,
    connections,
    duration,
    method: "POST",
    headers: HEADERS,
    requests: [
      {
        // autocannon keeps one context per connection: each connection is one client, with its own session.
        setupRequest: (request, context) => {
          if (sessions) context.headers ??= sessions[connection++ % sessions.length];
          return { ...request, ...(sessions ? { headers: context.headers } : {}), body: body() };
        },
      },
    ],
  });
  const cpu = cpuMs(pid) - cpuBefore;
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
    cpuPerRequest: cpu / result.requests.total,
    rss: { first: rss[0], max: Math.max(...rss), firstHalf: mean(rss.slice(0, half)), secondHalf: mean(rss.slice(half)) },
  };
}

async function measure(name, command, args, stateful = false) {
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
      headers: stateful ? (await openSession(url)) : HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_skills", arguments: { query: "warm up" } } }),
    });
    const sessions = stateful ? await Promise.all(Array.from({ length: connections }, () => openSession(url))) : undefined;
    return await load(name, url, child.pid, sessions);
  } finally {
    child.kill("SIGTERM");
  }
}

const stateful = values.mode === "stateful";
const load1 = () => loadavg()[0].toFixed(2);
console.log(`${connections} connections, ${duration} s each, skills from ${skillsDir}, server on ${values.runtime}, ${values.mode}; load average ${load1()}`);
const ceiling = await measure("bare node:http JSON server (ceiling)", [process.execPath], ["bench/fixtures/bare-json-server.mjs"]);
const kernel = await measure(
  `skills-kernel serve --transport http${stateful ? "" : " --stateless"} (${values.runtime})`,
  runtimes[values.runtime],
  ["dist/cli.js", "serve", "--transport", "http", ...(stateful ? [] : ["--stateless"]), "--port", "0", "--skills-dir", skillsDir],
  stateful,
);

console.log(`load average after: ${load1()}`);
console.log("| server | requests | req/s (mean) | p50 ms | p99 ms | errors | server CPU ms/request | RSS MiB: start / max / 1st-half mean / 2nd-half mean |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of [ceiling, kernel]) {
  const rss = [r.rss.first, r.rss.max, r.rss.firstHalf, r.rss.secondHalf].map((x) => x.toFixed(0)).join(" / ");
  console.log(`| ${r.name} | ${r.requests} | ${r.throughput.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.cpuPerRequest.toFixed(3)} | ${rss} |`);
}
console.log(`throughput ratio (kernel / ceiling): ${(kernel.throughput / ceiling.throughput).toFixed(2)}`);
console.log(`CPU per request ratio (ceiling / kernel): ${(ceiling.cpuPerRequest / kernel.cpuPerRequest).toFixed(2)}`);
