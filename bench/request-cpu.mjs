// CPU time per 2026-07-28 search_skills request through the HTTP handler, in process: no socket,
// no load generator sharing the cores, so what other work on the machine disturbs least. Each
// candidate runs in a child process of its own: the kernel's bundle (`kernel.fetch`, the same app
// `serve --transport http` serves; other builds with --kernel), and the plain SDK v2 server of
// bench/fixtures/plain-v2-handler.mjs (createMcpHandler, an McpServer per request, one search tool
// over MiniSearch). After a warm-up, `--concurrency` callers send `--requests` requests between
// them; the child reports its CPU time (user+sys) per request and its RSS before and after. Runs
// interleave, reversed every other round; prints medians, ratios and the load average.
//
//   node scripts/build.mjs && node bench/request-cpu.mjs [--runs 5] [--requests 3000] [--concurrency 50] [--root DIR] [--kernel OTHER/dist ...]
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const corpus = here("../../shared/corpus");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    requests: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "50" },
    root: { type: "string", default: existsSync(corpus) ? corpus : here("../examples/skills") },
    kernel: { type: "string", multiple: true, default: [] },
    child: { type: "string" },
  },
});
const root = resolve(values.root);
const QUERIES = [
  "extract tables from pdf files",
  "write a commit message",
  "review a README",
  "convert docx to markdown",
  "deploy to kubernetes",
];
const _meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const search = (n) =>
  new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      host: "127.0.0.1",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "search_skills",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name: "search_skills", arguments: { query: QUERIES[n % QUERIES.length] }, _meta },
    }),
  });

async function child(spec) {
  let fetch;
  let close = async () => {};
  if (spec === "plain") {
    const { createPlainHandler } = await import("./fixtures/plain-v2-handler.mjs");
    fetch = createPlainHandler(root).fetch;
  } else {
    const { createKernel } = await import(pathToFileURL(resolve(spec, "index.js")).href);
    const plugins = [
      "list-skills",
      "search-skills",
      "read-skill",
      "fetch-skill-files",
      "validate-skill",
      "install-skill",
    ].concat(["skill-resources", "skills-extension", "skill-prompts", "catalog-summary", "cache-stats"]);
    const kernel = await createKernel({
      config: { plugins: [["fs", { roots: [root] }], ...plugins], logLevel: "error" },
    });
    await kernel.catalog.ready();
    fetch = (request) => kernel.fetch(request);
    close = () => kernel.close();
  }
  let next = 0;
  const callers = async (total) => {
    let errors = 0;
    const one = async () => {
      while (next < total) {
        const response = await fetch(search(next++));
        const text = await response.text();
        if (response.status !== 200 || text.includes('"error"') || text.includes('"isError":true')) errors++;
      }
    };
    await Promise.all(Array.from({ length: Number(values.concurrency) }, one));
    return errors;
  };
  await callers(500);
  next = 0;
  const rssBefore = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const errors = await callers(Number(values.requests));
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  const result = {
    cpuMs: (used.user + used.system) / 1000 / Number(values.requests),
    wallMs: wall / Number(values.requests),
    errors,
    rssBefore: rssBefore / 2 ** 20,
    rssAfter: process.memoryUsage().rss / 2 ** 20,
  };
  await close();
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

if (values.child) {
  await child(values.child);
} else {
  const candidates = [
    { name: "plain SDK v2 (createMcpHandler, McpServer per request)", spec: "plain" },
    { name: "skills-kernel (this tree)", spec: here("../dist") },
    ...values.kernel.map((dist) => ({ name: `skills-kernel ${dist}`, spec: resolve(dist) })),
  ];
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const loadBefore = loadavg()[0];
  const results = candidates.map(() => []);
  for (let round = 0; round < Number(values.runs); round++) {
    const order = candidates.map((_, index) => index);
    for (const index of round % 2 ? order.reverse() : order) {
      const args = [
        fileURLToPath(import.meta.url),
        "--child",
        candidates[index].spec,
        "--root",
        root,
        "--requests",
        values.requests,
        "--concurrency",
        values.concurrency,
      ];
      results[index].push(
        JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })),
      );
    }
  }
  const plainCpu = median(results[0].map((r) => r.cpuMs));
  console.log(
    `${root}, ${values.requests} requests by ${values.concurrency} callers, ${values.runs} interleaved runs, node ${process.version}, load average ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)}\n`,
  );
  console.log(
    "| server | CPU ms/request (median) | vs plain | runs (CPU ms/request) | wall ms/request | errors | RSS MiB before → after (median) |",
  );
  console.log("|---|---:|---:|---|---:|---:|---|");
  for (const [index, candidate] of candidates.entries()) {
    const rows = results[index];
    const cpu = median(rows.map((r) => r.cpuMs));
    console.log(
      `| ${candidate.name} | ${cpu.toFixed(3)} | ${(cpu / plainCpu).toFixed(2)}x | ${rows.map((r) => r.cpuMs.toFixed(2)).join(", ")} | ${median(rows.map((r) => r.wallMs)).toFixed(3)} | ` +
        `${rows.reduce((sum, r) => sum + r.errors, 0)} | ${median(rows.map((r) => r.rssBefore)).toFixed(0)} → ${median(rows.map((r) => r.rssAfter)).toFixed(0)} |`,
    );
  }
}
