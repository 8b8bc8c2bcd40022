// Agent Skills discovery: building the index and archives for a catalog (the `well-known`
// plugin's SiteBuilder, what `export` and the http route run), first build and a rebuild with
// nothing changed, beside `tar -czf` over the same folders in the same run; then serving
// index.json, and every artifact it lists in turn, at 50 connections (autocannon) from `serve
// --transport http` (and the same with the audit off, to split what the warn audit of the first
// build adds), beside node:http + fs.readFile over the site `export` wrote
// (bench/anchors/static-site-server.mjs), in alternating rounds, with each server's CPU (user +
// system) per answer and peak RSS (docs/benchmarks.md). The 50 connections are one address, so
// one client to the kernel's work bounds (the defaults: the server idles while autocannon is busy).
//
//   npm run build && node --import tsx bench/discovery.ts [--skills-dir DIR] [--rounds 3] [--duration 10] [--connections 50] [--serve-only] [--before-dist DIR]
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
// @ts-expect-error autocannon ships no types, and this script reads only counts and latency.
import autocannon from "autocannon";
import pLimit from "p-limit";
import { EMBEDDED_DEFAULT_CONFIG } from "../src/cli/default-config.js";
import { createKernel } from "../src/create-kernel.js";
import { createLogger } from "../src/kernel/logger.js";
import { SiteBuilder } from "../src/plugins/routes/well-known/index.js";

const { values } = parseArgs({
  options: {
    "serve-only": { type: "boolean" },
    /** Another build's dist/ (the tree before a change), served beside this one in the same rounds. */
    "before-dist": { type: "string" },
    "skills-dir": { type: "string" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
  },
});
const rounds = Number(values.rounds);
const root = fileURLToPath(new URL("..", import.meta.url));
// The shared corpus beside the checkout (or beside the worktrees' folder) when there is one, else the example skills.
const corpus = ["../../shared/corpus", "../../../shared/corpus"]
  .map((path) => fileURLToPath(new URL(path, import.meta.url)))
  .find(existsSync);
const skillsDir = values["skills-dir"] ?? corpus ?? join(root, "examples/skills");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

// --- Building -------------------------------------------------------------------------------
if (!values["serve-only"]) await buildRounds();
async function buildRounds() {
  const logger = createLogger("error");
  const kernel = await createKernel({
    config: { plugins: [["fs", { roots: [{ path: skillsDir }], watch: false }]] },
    logger,
  });
  await kernel.catalog.ready();
  const signal = new AbortController().signal;
  const probe = await new SiteBuilder(logger).build(kernel.catalog, signal);
  const archived = probe.index.skills
    .filter((entry) => entry.type === "archive")
    .map((entry) => kernel.catalog.get(entry.name)!);
  const archiveBytes = [...probe.artifacts.values()]
    .filter((artifact) => artifact.contentType === "application/gzip")
    .reduce((sum, artifact) => sum + artifact.bytes.length, 0);
  console.log(
    `${skillsDir}: ${kernel.catalog.list().length} skills; index lists ${probe.index.skills.length} (${archived.length} archives, ${(archiveBytes / 1024 / 1024).toFixed(1)} MiB; ${probe.leftOut.length} left out)`,
  );

  const first: number[] = [];
  const rebuild: number[] = [];
  const tarEach: number[] = [];
  const tarOne: number[] = [];
  const scratch = await mkdtemp(join(tmpdir(), "sk-bench-discovery-"));
  const run = promisify(execFile);
  for (let round = 0; round < rounds; round += 1) {
    const builder = new SiteBuilder(logger);
    let start = process.hrtime.bigint();
    await builder.build(kernel.catalog, signal);
    first.push(ms(start));
    start = process.hrtime.bigint();
    await builder.build(kernel.catalog, signal);
    rebuild.push(ms(start));
    // tar -czf per archive skill folder, two at a time (the machine's cores).
    start = process.hrtime.bigint();
    await pLimit(2).map(archived, (skill, index) =>
      run("tar", ["-czf", join(scratch, `${index}.tar.gz`), "-C", join(skillsDir, skill.path), "."]),
    );
    tarEach.push(ms(start));
    // One tar -czf over all of them: no process per skill, no per-skill archive.
    start = process.hrtime.bigint();
    await run("tar", ["-czf", join(scratch, "all.tar.gz"), "-C", skillsDir, ...archived.map((skill) => skill.path)], {
      maxBuffer: 1 << 26,
    });
    tarOne.push(ms(start));
  }
  await rm(scratch, { recursive: true, force: true });
  await kernel.close();
  const row = (name: string, xs: number[]) =>
    console.log(
      `${name.padEnd(44)} median ${median(xs).toFixed(0).padStart(6)} ms   runs ${xs.map((x) => x.toFixed(0)).join(", ")}`,
    );
  row("SiteBuilder first build (index + archives)", first);
  row("SiteBuilder rebuild, nothing changed", rebuild);
  row("tar -czf per archive folder (2 at a time)", tarEach);
  row("one tar -czf over the same folders", tarOne);
}

// --- Serving --------------------------------------------------------------------------------
function start(command: string, args: string[], ready: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = ready.exec(stderr);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

/**
 * `serve --transport http --skills-dir` of the bundle at `cli` (with `config`, a config file, for
 * the rest), its discovery site built (the first request builds it, as a client would wait once).
 */
async function startKernel(cli: string, config?: string) {
  const server = await start(
    process.execPath,
    [
      cli,
      "serve",
      "--transport",
      "http",
      "--port",
      "0",
      "--skills-dir",
      skillsDir,
      ...(config ? ["--config", config] : []),
    ],
    /listening on (http:\/\/\S+)\/mcp/,
  );
  const served = await fetch(`${server.url}${indexPath}`, { signal: AbortSignal.timeout(600_000) });
  if (served.status !== 200) throw new Error(`index.json answered ${served.status}: ${await served.text()}`);
  return { ...server, index: (await served.json()) as { skills: { url: string }[] } };
}
const indexPath = "/.well-known/agent-skills/index.json";
const kernelServer = await startKernel("dist/cli.js");
// Every entry's artifact (a .tar.gz, or a SKILL.md where the folder holds nothing else), in turn.
const artifactPaths = kernelServer.index.skills.map((entry) => `/.well-known/agent-skills/${entry.url}`);
// The static anchor serves what `export` wrote for the same folder.
const site = await mkdtemp(join(tmpdir(), "sk-bench-site-"));
await promisify(execFile)(process.execPath, ["dist/cli.js", "export", skillsDir, "--out", site], {
  cwd: root,
  maxBuffer: 1 << 24,
});
// The same server with the audit off: what the warn audit of every file the first build reads adds.
const auditOff = `${site}-audit-off.json`;
await writeFile(
  auditOff,
  JSON.stringify({
    plugins: [...(EMBEDDED_DEFAULT_CONFIG.plugins ?? []), ["skill-policy", { audit: { "*": "off" } }]],
  }),
);
const servers: (readonly [string, { child: ChildProcess; url: string }])[] = [
  ["skills-kernel", kernelServer],
  ["audit off", await startKernel("dist/cli.js", auditOff)],
  ...(values["before-dist"] ? [["before", await startKernel(join(values["before-dist"], "cli.js"))] as const] : []),
  [
    "static node:http",
    await start(process.execPath, ["bench/anchors/static-site-server.mjs", site], /listening on (http:\/\/\S+)\//),
  ],
];
/** The most resident memory the process has had (VmHWM), in MB. */
const peakRss = async (child: ChildProcess) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024;
/** The CPU time (user + system) the process has used, in seconds: what a shared machine's figures keep. */
const cpuSeconds = async (child: ChildProcess) => {
  const fields = (await readFile(`/proc/${child.pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssRow = async () =>
  (
    await Promise.all(servers.map(async ([name, server]) => `${name} ${(await peakRss(server.child)).toFixed(0)} MB`))
  ).join(", ");
console.log(
  `index.json and ${artifactPaths.length} artifacts; ${values.connections} connections, ${values.duration} s a run; peak RSS (VmHWM) before load: ${await rssRow()}`,
);
const loads = [
  ["index.json", [{ path: indexPath }]],
  ["artifacts", artifactPaths.map((path) => ({ path }))],
] as const;
const results: Record<
  string,
  { rps: number[]; p50: number[]; p99: number[]; cpuPerAnswer: number[]; loadCpuPerAnswer: number[]; errors: number }
> = {};
for (let round = 0; round < rounds; round += 1) {
  for (const [load, requests] of loads) {
    for (const [name, server] of servers) {
      const cpuBefore = await cpuSeconds(server.child);
      const loadBefore = process.cpuUsage();
      const result = await autocannon({
        url: server.url,
        requests,
        connections: Number(values.connections),
        duration: Number(values.duration),
      });
      const cpu = (await cpuSeconds(server.child)) - cpuBefore;
      const generator = process.cpuUsage(loadBefore);
      const held = (results[`${load.padEnd(11)} ${name}`] ??= {
        rps: [],
        p50: [],
        p99: [],
        cpuPerAnswer: [],
        loadCpuPerAnswer: [],
        errors: 0,
      });
      // The server's CPU (and the load generator's, in this process) per 2xx answer, in µs.
      held.cpuPerAnswer.push((cpu * 1e6) / Math.max(1, result["2xx"]));
      held.loadCpuPerAnswer.push((generator.user + generator.system) / Math.max(1, result["2xx"]));
      // Only 2xx answers count: a refusal (429 from the work limits) is no archive served.
      held.rps.push(result["2xx"] / result.duration);
      held.p50.push(result.latency.p50);
      held.p99.push(result.latency.p99);
      held.errors += result.errors + result.non2xx;
    }
  }
}
for (const [name, held] of Object.entries(results)) {
  console.log(
    `${name.padEnd(28)} median ${median(held.rps).toFixed(0).padStart(6)} 2xx/s  p50 ${median(held.p50)} ms  p99 ${median(held.p99)} ms  errors and non-2xx ${held.errors}   2xx/s runs ${held.rps.map((x) => x.toFixed(0)).join(", ")}   server CPU ${median(held.cpuPerAnswer).toFixed(0)} µs/answer (runs ${held.cpuPerAnswer.map((x) => x.toFixed(0)).join(", ")}), load generator ${median(held.loadCpuPerAnswer).toFixed(0)} µs/answer`,
  );
}
console.log(`peak RSS (VmHWM) after every run: ${await rssRow()}`);
for (const [, server] of servers) server.child.kill();
await rm(site, { recursive: true, force: true });
await rm(auditOff, { force: true });
