// HTTP load: concurrent clients calling search_skills on `skills-kernel serve --transport http`
// (autocannon), beside a plain MCP server on the official SDK v2 doing the same job
// (bench/fixtures/plain-v2-http-server.mjs: McpServer + createMcpHandler, one search tool over
// MiniSearch on the same catalog), in rounds that alternate the two so that load from other work
// falls on both alike. Loopback only. Reports per run and as medians over the rounds: throughput,
// p50, p99, errors, the server's CPU time (user+sys) per request and its RSS sampled every second
// (docs/benchmarks.md). Requests speak 2026-07-28 (stateless by the protocol) unless
// `--protocol 2025-11-25`, which runs the kernel with --stateless (what a v1-SDK build can serve);
// `--baseline bare` measures against a bare node:http JSON server instead, `--baseline modern`
// against the same kernel serving 2026-07-28 (with `--protocol 2025-11-25`: the two revisions' stateless
// paths side by side); `--mode stateful` opens
// one 2025-11-25 session per connection first. `--kernel` runs another build's CLI (main's dist).
//
//   npm run build && npm run bench:http-load -- [--duration 20] [--connections 50] [--rounds 3] [--runtime node|bun|deno]
//     [--protocol 2026-07-28|2025-11-25] [--baseline plain-v2|bare|modern] [--mode stateless|stateful] [--skills-dir DIR] [--kernel PATH/cli.js]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "20" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
    protocol: { type: "string", default: "2026-07-28" },
    baseline: { type: "string", default: "plain-v2" },
    kernel: { type: "string", default: "dist/cli.js" },
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
const skillsDir =
  values["skills-dir"] ?? (existsSync(corpus) ? corpus : fileURLToPath(new URL("../examples/skills", import.meta.url)));

// Queries an agent might send, cycled so the ranker does real work rather than one cached path.
const QUERIES = [
  "extract tables from pdf files",
  "write a commit message",
  "review a README",
  "release notes from merged pull requests",
  "convert docx to markdown",
  "build a react component",
  "analyze a csv with pandas",
  "create a powerpoint deck",
  "test a web app with playwright",
  "design a rest api",
  "write unit tests",
  "summarize a long document",
  "deploy to kubernetes",
  "optimize sql queries",
  "draw a diagram",
  "translate a document",
  "scrape a website",
  "fill a pdf form",
  "create an excel chart",
  "debug a python error",
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
const MODERN = "2026-07-28";

/** A tools/call of search_skills as the protocol revision asks: 2026-07-28 with its envelope and headers. */
function searchRequest(protocol, query) {
  const params = { name: "search_skills", arguments: { query } };
  if (protocol !== MODERN)
    return { headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params }) };
  const _meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  return {
    headers: { ...HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "search_skills" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta } }),
  };
}

/** A session's headers: initialize, then the initialized notification, as a client does. */
async function openSession(url) {
  const initialize = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "http-load", version: "1" } },
    }),
  });
  await initialize.text();
  const headers = {
    ...HEADERS,
    "mcp-session-id": initialize.headers.get("mcp-session-id"),
    "mcp-protocol-version": "2025-11-25",
  };
  const initialized = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.text();
  return headers;
}

async function load(name, url, pid, protocol, sessions) {
  let next = 0;
  let connection = 0;
  const rss = [];
  const sampler = setInterval(() => rss.push(rssMiB(pid)), 1000);
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url,
    connections,
    duration,
    method: "POST",
    headers: searchRequest(protocol, "q").headers,
    requests: [
      {
        // autocannon keeps one context per connection: each connection is one client, with its own session.
        setupRequest: (request, context) => {
          if (sessions) context.headers ??= sessions[connection++ % sessions.length];
          const { headers, body } = searchRequest(protocol, QUERIES[next++ % QUERIES.length]);
          return { ...request, headers: sessions ? context.headers : headers, body };
        },
      },
    ],
  });
  const cpu = cpuMs(pid) - cpuBefore;
  clearInterval(sampler);
  const half = Math.floor(rss.length / 2);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    name,
    requests: result.requests.total,
    throughput: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    timeouts: result.timeouts,
    cpuPerRequest: cpu / result.requests.total,
    rss: {
      first: rss[0],
      max: Math.max(...rss),
      firstHalf: mean(rss.slice(0, half)),
      secondHalf: mean(rss.slice(half)),
    },
    rssSeries: rss.map((x) => x.toFixed(0)).join(" "),
  };
}

async function measure(name, command, args, protocol, stateful = false) {
  const { child, url } = await start(command, args);
  try {
    // Warm up, unmeasured: after /readyz the server still builds its search index and starts
    // watching the skill folders; start-up is not what this measures.
    if (args.includes("http")) {
      for (let i = 0; i < 600 && (await fetch(new URL("/readyz", url))).status !== 200; i++)
        await new Promise((r) => setTimeout(r, 100));
    }
    const warm = searchRequest(protocol, "warm up");
    await autocannon({
      url,
      connections: 10,
      duration: 5,
      method: "POST",
      headers: stateful ? await openSession(url) : warm.headers,
      body: warm.body,
    });
    const sessions = stateful
      ? await Promise.all(Array.from({ length: connections }, () => openSession(url)))
      : undefined;
    return await load(name, url, child.pid, protocol, sessions);
  } finally {
    child.kill("SIGTERM");
  }
}

const stateful = values.mode === "stateful";
const protocol = stateful ? "2025-11-25" : values.protocol;
const rounds = Number(values.rounds);
const load1 = () => loadavg()[0].toFixed(2);
const kernelCli = fileURLToPath(new URL(values.kernel, new URL("..", import.meta.url)));
console.log(
  `${connections} connections, ${duration} s a run, ${rounds} rounds, skills from ${skillsDir}, kernel ${kernelCli} on ${values.runtime}, ` +
    `${stateful ? "2025-11-25 sessions" : `${protocol} requests`}; load average ${load1()}`,
);
const kernelArgs = [
  "serve",
  "--transport",
  "http",
  ...(stateful || protocol === MODERN ? [] : ["--stateless"]),
  "--port",
  "0",
  "--skills-dir",
  skillsDir,
];
const baselines = {
  bare: {
    name: "bare node:http JSON server",
    command: [process.execPath],
    args: ["bench/fixtures/bare-json-server.mjs"],
    protocol,
  },
  "plain-v2": {
    name: "plain SDK v2 server (2026-07-28)",
    command: [process.execPath],
    args: ["bench/fixtures/plain-v2-http-server.mjs", skillsDir],
    protocol: MODERN,
  },
  modern: {
    name: `skills-kernel serve --transport http (${values.runtime}, ${MODERN})`,
    command: runtimes[values.runtime],
    args: [kernelCli, ...kernelArgs.filter((arg) => arg !== "--stateless")],
    protocol: MODERN,
  },
};
const baseline = baselines[values.baseline];
if (!baseline) throw new Error(`--baseline: ${values.baseline} is not one of ${Object.keys(baselines).join(", ")}`);
const kernelName = `skills-kernel serve --transport http${kernelArgs.includes("--stateless") ? " --stateless" : ""} (${values.runtime}, ${protocol})`;

const rows = [];
for (let round = 1; round <= rounds; round++) {
  // Alternate which goes first, so neither always runs on the warmer (or busier) machine.
  const order = round % 2 === 1 ? ["baseline", "kernel"] : ["kernel", "baseline"];
  for (const which of order) {
    const before = load1();
    const r =
      which === "baseline"
        ? await measure(baseline.name, baseline.command, baseline.args, baseline.protocol)
        : await measure(kernelName, runtimes[values.runtime], [kernelCli, ...kernelArgs], protocol, stateful);
    rows.push({ round, which, load: `${before} → ${load1()}`, ...r });
    console.log(
      `round ${round}, ${r.name}: ${r.throughput.toFixed(0)} req/s, ${r.errors} errors; RSS MiB each second: ${r.rssSeries}`,
    );
  }
}

console.log(
  "| round (load average) | server | requests | req/s (mean) | p50 ms | p99 ms | errors | server CPU ms/request | RSS MiB: start / max / 1st-half mean / 2nd-half mean |",
);
console.log("|---|---|---:|---:|---:|---:|---|---:|---|");
for (const r of rows) {
  const rss = [r.rss.first, r.rss.max, r.rss.firstHalf, r.rss.secondHalf].map((x) => x.toFixed(0)).join(" / ");
  const errors = `${r.errors}${r.timeouts ? ` (${r.timeouts} timeouts)` : ""}`;
  console.log(
    `| ${r.round} (${r.load}) | ${r.name} | ${r.requests} | ${r.throughput.toFixed(0)} | ${r.p50} | ${r.p99} | ${errors} | ${r.cpuPerRequest.toFixed(3)} | ${rss} |`,
  );
}
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const of = (which, key) => median(rows.filter((r) => r.which === which).map((r) => r[key]));
const ratios = rows
  .filter((r) => r.which === "kernel")
  .map((k) => k.throughput / rows.find((b) => b.which === "baseline" && b.round === k.round).throughput);
console.log(
  `medians: baseline ${of("baseline", "throughput").toFixed(0)} req/s, ${of("baseline", "cpuPerRequest").toFixed(3)} CPU ms/request; ` +
    `kernel ${of("kernel", "throughput").toFixed(0)} req/s, ${of("kernel", "cpuPerRequest").toFixed(3)} CPU ms/request`,
);
console.log(
  `throughput ratio (kernel / baseline), per round: ${ratios.map((x) => x.toFixed(2)).join(", ")}; median ${median(ratios).toFixed(2)}`,
);
console.log(
  `errors: kernel ${rows.filter((r) => r.which === "kernel").reduce((a, r) => a + r.errors, 0)}, baseline ${rows.filter((r) => r.which === "baseline").reduce((a, r) => a + r.errors, 0)}; load average after: ${load1()}`,
);
