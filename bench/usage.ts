// Counting usage beside not counting it, in one run (issue 50: "counting never slows an answer").
// 1. search p50 in process: kernel.callTool("search_skills") on two kernels of the same catalog,
//    one with the usage plugin and one without, calls interleaved one by one so that load from
//    other work falls on both alike.
// 2. HTTP throughput: two `skills-kernel serve --transport http` of the same bundle, with and
//    without the usage plugin, autocannon on 2026-07-28 search_skills calls (half of them misses),
//    in alternating rounds.
// The store is the default one (the cache folder, in a scratch folder), or Redis with --redis URL.
//
//   npm run build && npm run bench:usage -- [--skills-dir DIR] [--calls 4000] [--rounds 3] [--duration 10]
//     [--connections 50] [--redis redis://127.0.0.1:6379]
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createKernel, createLogger, type SkillsKernel } from "../src/index.js";

const { values } = parseArgs({
  options: {
    "skills-dir": { type: "string" },
    calls: { type: "string", default: "4000" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    redis: { type: "string" },
  },
});
const root = fileURLToPath(new URL("..", import.meta.url));
const corpus = fileURLToPath(new URL("../../shared/corpus", import.meta.url));
const skillsDir =
  values["skills-dir"] ?? (existsSync(corpus) ? corpus : fileURLToPath(new URL("../examples/skills", import.meta.url)));

// Tasks an agent might search for, and as many that no skill answers: a miss is the costlier note.
const QUERIES = [
  "extract tables from pdf files",
  "write a commit message",
  "release notes from merged pull requests",
  "analyze a csv with pandas",
  "test a web app with playwright",
  "deploy to kubernetes",
  "quantum banana harmonica",
  "zebra accounting for llamas",
  "ada@example.com wants the teapot",
  "frobnicate the wibble",
];

const plugins = (usage: boolean) => [
  ["fs", { roots: [{ path: skillsDir, source: "corpus" }], watch: false }],
  "search-skills",
  "read-skill",
  ...(values.redis ? [["cache-redis", { url: values.redis, prefix: `bench-usage-${process.pid}` }]] : []),
  ...(usage ? ["usage"] : []),
];

/** autocannon's run, as far as this bench reads it (the package ships no types). */
type Autocannon = (options: Record<string, unknown>) => Promise<{
  requests: { average: number };
  latency: { p50: number };
  errors: number;
  non2xx: number;
}>;
const AUTOCANNON = "autocannon";
const autocannon = ((await import(AUTOCANNON)) as { default: Autocannon }).default;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

async function searchLatency(scratch: string): Promise<void> {
  const boot = (usage: boolean) =>
    createKernel({
      config: { plugins: plugins(usage) as never },
      baseDir: scratch,
      logger: createLogger("error"),
    });
  const kernels: Record<"with" | "without", SkillsKernel> = { with: await boot(true), without: await boot(false) };
  const times: Record<"with" | "without", number[]> = { with: [], without: [] };
  for (const kernel of Object.values(kernels)) {
    await kernel.catalog.ready();
    for (const query of QUERIES) await kernel.callTool("search_skills", { query });
  }
  const calls = Number(values.calls);
  for (let i = 0; i < calls; i++) {
    const query = QUERIES[i % QUERIES.length]!;
    // Interleaved, and each pair in alternating order: neither side always goes first.
    for (const side of i % 2 === 0 ? (["with", "without"] as const) : (["without", "with"] as const)) {
      const started = performance.now();
      await kernels[side].callTool("search_skills", { query });
      times[side].push(performance.now() - started);
    }
  }
  await Promise.all(Object.values(kernels).map((kernel) => kernel.close()));
  const [w, wo] = [times.with, times.without];
  console.log(`search in process, ${calls} calls each, ${skillsDir}`);
  console.log(`  with usage:    p50 ${median(w).toFixed(3)} ms  p99 ${quantile(w, 0.99).toFixed(3)} ms`);
  console.log(`  without usage: p50 ${median(wo).toFixed(3)} ms  p99 ${quantile(wo, 0.99).toFixed(3)} ms`);
  console.log(`  p50 ratio with/without: ${(median(w) / median(wo)).toFixed(3)}`);
}

function start(config: string, cache: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["dist/cli.js", "serve", "--transport", "http", "--port", "0", "--config", config],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, SKILLS_KERNEL_CACHE_DIR: cache },
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

const MODERN = "2026-07-28";
function searchCall(query: string) {
  const _meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  return {
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "search_skills",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_skills", arguments: { query }, _meta },
    }),
  };
}

async function load(url: string, seconds: number, connections: number) {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    method: "POST",
    headers: searchCall("q").headers,
    requests: [
      { setupRequest: (request: object) => ({ ...request, ...searchCall(QUERIES[next++ % QUERIES.length]!) }) },
    ],
  });
  return { throughput: result.requests.average, p50: result.latency.p50, errors: result.errors + result.non2xx };
}

async function httpThroughput(scratch: string): Promise<void> {
  const servers: Record<string, { child: ChildProcess; url: string }> = {};
  for (const usage of [true, false]) {
    const config = join(scratch, `${usage ? "with" : "without"}.json`);
    await writeFile(config, JSON.stringify({ plugins: [...plugins(usage), ["http", { port: 0 }]] }));
    servers[usage ? "with" : "without"] = await start(config, join(scratch, "cache"));
  }
  try {
    for (const { url } of Object.values(servers)) await load(url, 3, 10);
    const runs: Record<string, { throughput: number; p50: number; errors: number }[]> = { with: [], without: [] };
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const side of round % 2 === 0 ? ["with", "without"] : ["without", "with"]) {
        const run = await load(servers[side]!.url, Number(values.duration), Number(values.connections));
        runs[side]!.push(run);
        console.log(
          `  round ${round + 1} ${side}: ${run.throughput.toFixed(0)} req/s, p50 ${run.p50} ms, ${run.errors} errors`,
        );
      }
    }
    const [w, wo] = [runs.with!, runs.without!];
    console.log(
      `HTTP, ${values.connections} connections, ${values.duration} s a round, medians of ${values.rounds} rounds`,
    );
    console.log(
      `  with usage:    ${median(w.map((r) => r.throughput)).toFixed(0)} req/s, p50 ${median(w.map((r) => r.p50))} ms`,
    );
    console.log(
      `  without usage: ${median(wo.map((r) => r.throughput)).toFixed(0)} req/s, p50 ${median(wo.map((r) => r.p50))} ms`,
    );
    const ratios = w.map((run, i) => run.throughput / wo[i]!.throughput);
    console.log(
      `  throughput ratio with/without: ${median(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(2)).join(", ")})`,
    );
  } finally {
    // Stopping servers write their figures and snapshots to the scratch cache: wait for them to exit.
    const exits = Object.values(servers).map(({ child }) => new Promise((resolve) => child.once("exit", resolve)));
    for (const { child } of Object.values(servers)) child.kill("SIGTERM");
    await Promise.all(exits);
  }
}

const scratch = await mkdtemp(join(tmpdir(), "bench-usage-"));
process.env.SKILLS_KERNEL_CACHE_DIR = join(scratch, "cache");
try {
  console.log(
    `store: ${values.redis ? `Redis ${values.redis}` : "the cache folder (default)"}; load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  await searchLatency(scratch);
  await httpThroughput(scratch);
  console.log(
    `load after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
} finally {
  await rm(scratch, { recursive: true, force: true });
}
