// Serving large catalogs: skills-kernel against the anchor servers (bench/anchors), each spawned
// over stdio and driven by the MCP SDK client, on real-shaped catalogs (bench/scale/make-real-catalog.mjs:
// whole skill folders, category folders, nested skills; --flat: SKILL.md-only folders instead).
// Per size, candidates interleaved run by run (the order reversed every other run):
//   - spawn → first complete search answer, skills-kernel cold (--no-disk-cache: every SKILL.md
//     read, the index built) and warm (--cache-dir a folder one earlier run filled: snapshots and
//     the saved index) and on a first start (an empty cache folder each run), beside the echo
//     server (one tool that answers at once: the floor of any stdio server), the warm floor
//     (bench/anchors/warm-floor.mjs: the least a warm start that checks before it serves does)
//     and the kernel warm on a catalog of three skills (its own start), wall time and the
//     server's CPU time (all threads) up to it. skills-kernel answers within 5 s whatever is loaded: an answer with no skill (the
//     query matches pdf skills) came before the catalog, so it is asked again; retries are counted;
//   - with --settle/--idle > 0, RSS and idle CPU of each server once it has answered;
//   - `skills-kernel list` (each kernel build's; this tree's cold and warm), wall and CPU time, against two floors that only
//     read every SKILL.md (bench/anchors/read-all.mjs, read-all-2.mjs) and two that also parse its
//     frontmatter and print the list (list-floor.mjs with yaml, list-floor-2.mjs with gray-matter).
// Ratios are against both Fuse servers (two independent implementations of the same thing), and
// the load average is printed with every table: on a loaded machine, trust the CPU columns.
//
//   node bench/scale.mjs [--sizes 1566,10000] [--runs 5] [--settle 0 --idle 0] [--flat]
//   node bench/scale.mjs --sizes 10000 --runs 3 --settle 40 --idle 20   # RSS and idle CPU too
//   node bench/scale.mjs --sizes 100000 --runs 1   # minutes: 100,000 skills under /tmp (hard links to the corpus)
//   node bench/scale.mjs --baseline /tmp/old/dist/cli.js   # another build beside dist/cli.js, run by run
//   node bench/scale.mjs --baseline /tmp/old/dist/cli.js --baseline-cold --only 'kernel cold$|cli\.js$|Fuse server 1|MiniSearch'
//   node bench/scale.mjs --sizes 100000 --runs 1 --only 'kernel|Fuse server 1|read-all\.mjs'   # a subset
//   node bench/scale.mjs --sizes 1566 --runtimes bun,deno --only 'kernel'   # the bundle on Bun and Deno too
//   node bench/scale.mjs --sizes 1566,10000 --latency 200 --only 'kernel cold$|MiniSearch|echo'   # search over stdio
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { makeCatalog } from "./scale/make-catalog.mjs";
import { makeRealCatalog } from "./scale/make-real-catalog.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1566,10000" },
    runs: { type: "string", default: "5" },
    // Seconds between the first answer and the idle window (the kernel arms its watchers then, and
    // V8 gives back what start-up left behind once the process is quiet); 0 with --idle 0: neither.
    settle: { type: "string", default: "0" },
    idle: { type: "string", default: "0" },
    kernel: { type: "string", default: "dist/cli.js" },
    // A second build served beside it in the same runs (a before/after), e.g. an older commit's.
    baseline: { type: "string" },
    // The baseline started cold as this tree's cold candidate is (a build that knows --no-disk-cache).
    "baseline-cold": { type: "boolean", default: false },
    // SKILL.md-only folders (bench/scale/make-catalog.mjs), the flattering catalog of earlier runs.
    flat: { type: "boolean", default: false },
    query: { type: "string", default: "extract tables from pdf files" },
    // The kernel's bundle also served on these runtimes (bun, deno: test/runtimes, installed by
    // `node scripts/test-runtimes.mjs`), beside the Node running this bench.
    runtimes: { type: "string", default: "" },
    // After the first answer, this many more searches one after another (the queries below in
    // turn), for each server's median time per search over stdio; 0: none.
    latency: { type: "string", default: "0" },
    // Only the servers and commands whose name matches (a regular expression), for the long sizes.
    only: { type: "string", default: "" },
  },
});
const repo = fileURLToPath(new URL("..", import.meta.url));
const node = process.execPath;
const runs = Number(values.runs);
const latencyCalls = Number(values.latency);
/** Requests of every kind for the latency series: a task, a skill's name, a word, a typo, no match. */
const LATENCY_QUERIES = [
  "extract tables from pdf files",
  "commit message",
  "kubernetes",
  "dockerfil best practices",
  "write unit tests for react components",
  "zzqx nothing matches",
];
const settleSeconds = Number(values.settle);
const idleSeconds = Number(values.idle);
const kernel = resolve(repo, values.kernel);
// No config here: the kernel serves exactly --skills-dir with its embedded defaults.
const cwd = mkdtempSync(join(tmpdir(), "skills-kernel-scale-cwd-"));
const anchor = (file) => join(repo, "bench/anchors", file);

const RUNTIMES = { bun: (cli) => [cli], deno: (cli) => ["run", "-A", "--quiet", cli] };
const runtimes = values.runtimes
  .split(",")
  .filter(Boolean)
  .map((name) => {
    if (!(name in RUNTIMES)) throw new Error(`--runtimes: ${name} is not one of ${Object.keys(RUNTIMES).join(", ")}`);
    return { name, command: join(repo, "test/runtimes/node_modules/.bin", name), args: RUNTIMES[name] };
  });
const only = new RegExp(values.only);
/** Per catalog, the cache folder the warm candidates start from (filled by warmUp). */
const warmDir = (root) => join(cwd, `warm-${root.replaceAll("/", "_")}`);
const EXAMPLES = join(repo, "examples/skills");
const servers = (root) =>
  [
    { name: "skills-kernel cold", args: [kernel, "--skills-dir", root, "--no-disk-cache"], tool: "search_skills" },
    {
      name: "skills-kernel warm",
      args: [kernel, "--skills-dir", root, "--cache-dir", warmDir(root)],
      tool: "search_skills",
    },
    // A user's very first start: an empty cache folder each run, filled while it serves.
    {
      name: "skills-kernel first start (empty cache folder)",
      get args() {
        return [kernel, "--skills-dir", root, "--cache-dir", mkdtempSync(join(cwd, "first-"))];
      },
      tool: "search_skills",
    },
    // Older builds know no disk cache: every start of theirs is cold.
    ...(values.baseline
      ? [
          {
            name: `skills-kernel ${values.baseline}`,
            args: [
              resolve(repo, values.baseline),
              "--skills-dir",
              root,
              ...(values["baseline-cold"] ? ["--no-disk-cache"] : []),
            ],
            tool: "search_skills",
          },
        ]
      : []),
    ...runtimes.map((runtime) => ({
      name: `skills-kernel on ${runtime.name}`,
      command: runtime.command,
      args: [...runtime.args(kernel), "--skills-dir", root, "--no-disk-cache"],
      tool: "search_skills",
    })),
    { name: "Fuse server 1 (fuse-server.mjs)", args: [anchor("fuse-server.mjs"), root], tool: "search" },
    { name: "Fuse server 2 (fuse-server-2.mjs)", args: [anchor("fuse-server-2.mjs"), root], tool: "search" },
    { name: "MiniSearch server", args: [anchor("minisearch-server.mjs"), root], tool: "search" },
    // The protocol's own cost, the floor of a start: answers at once, reads nothing.
    { name: "echo server (echo-server.mjs)", args: [anchor("echo-server.mjs")], tool: "search", echo: true },
    // The floor of a warm start that checks every folder and SKILL.md before it serves.
    {
      name: "warm floor (warm-floor.mjs)",
      args: [anchor("warm-floor.mjs"), root, join(warmDir(root), "warm-floor.json")],
      tool: "search",
      floor: true,
    },
    // What the kernel's start costs with a catalog of three skills (warm): what no catalog size adds to.
    {
      name: "skills-kernel warm, 3 skills (examples/skills)",
      args: [kernel, "--skills-dir", EXAMPLES, "--cache-dir", warmDir(EXAMPLES)],
      tool: "search_skills",
      echo: true,
    },
  ].filter((candidate) => only.test(candidate.name));
const commands = (root) =>
  [
    { name: "skills-kernel list cold", args: [kernel, "list", "--skills-dir", root, "--no-disk-cache"] },
    { name: "skills-kernel list warm", args: [kernel, "list", "--skills-dir", root, "--cache-dir", warmDir(root)] },
    {
      name: "skills-kernel list warm, 3 skills (examples/skills)",
      args: [kernel, "list", "--skills-dir", EXAMPLES, "--cache-dir", warmDir(EXAMPLES)],
    },
    ...(values.baseline
      ? [
          {
            // Cold, as this tree's `list cold`: a build older than the disk cache refuses the flag.
            name: `skills-kernel ${values.baseline} list`,
            args: [resolve(repo, values.baseline), "list", "--skills-dir", root, "--no-disk-cache"],
          },
        ]
      : []),
    { name: "read-all.mjs (synchronous walk, every SKILL.md read)", args: [anchor("read-all.mjs"), root] },
    { name: "read-all-2.mjs (recursive readdir, every SKILL.md read)", args: [anchor("read-all-2.mjs"), root] },
    { name: "list-floor.mjs (synchronous walk, yaml, sorted list)", args: [anchor("list-floor.mjs"), root] },
    {
      name: "list-floor-2.mjs (recursive readdir, gray-matter, sorted list)",
      args: [anchor("list-floor-2.mjs"), root],
    },
  ].filter((command) => only.test(command.name));

/** CPU time of a live process, all its threads, in ms (Linux: /proc/PID/task/*\/schedstat, ns). */
const cpuMs = (pid) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6,
    0,
  );
const rssMb = (pid) =>
  Number(
    readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"))
      .split(/\s+/)[1],
  ) / 1024;
/** Whether a search_skills answer came before the catalog was in: it then holds no skill at all. */
const beforeTheCatalog = (answer) => answer.structuredContent?.total === 0;

/** Spawns one server, times its first complete search answer, then (if asked) its RSS and idle CPU. */
async function serve(candidate) {
  const transport = new StdioClientTransport({
    command: candidate.command ?? node,
    args: candidate.args,
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "scale-bench", version: "0" });
  const started = performance.now();
  await client.connect(transport, { timeout: 900_000 });
  let retries = 0;
  for (;;) {
    const answer = await client.callTool(
      { name: candidate.tool, arguments: { query: values.query } },
      { timeout: 900_000 },
    );
    if (answer.isError) throw new Error(`${candidate.name}: ${JSON.stringify(answer.content)}`);
    if (candidate.echo || !beforeTheCatalog(answer)) break;
    retries++;
    await sleep(50);
  }
  const result = { wall: performance.now() - started, cpu: cpuMs(transport.pid), retries };
  if (latencyCalls > 0) {
    const times = [];
    for (let call = 0; call < latencyCalls; call++) {
      const asked = performance.now();
      await client.callTool({
        name: candidate.tool,
        arguments: { query: LATENCY_QUERIES[call % LATENCY_QUERIES.length] },
      });
      times.push(performance.now() - asked);
    }
    result.latency = median(times);
  }
  if (settleSeconds + idleSeconds > 0) {
    await sleep(settleSeconds * 1000);
    const before = cpuMs(transport.pid);
    await sleep(idleSeconds * 1000);
    result.idle = ((cpuMs(transport.pid) - before) / (idleSeconds * 1000)) * 100;
    result.rss = rssMb(transport.pid);
  }
  await client.close();
  return result;
}

/** Runs a one-shot command to its end: wall ms, and CPU ms as bench/scale/report-cpu.mjs reports it. */
function once({ args }) {
  return new Promise((done, reject) => {
    const started = performance.now();
    const child = spawn(node, ["--import", join(repo, "bench/scale/report-cpu.mjs"), ...args], {
      cwd,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr = (stderr + chunk).slice(-4096)));
    child.on("error", reject);
    child.on("exit", (code) => {
      const cpu = /bench-cpu-ms ([\d.]+)/.exec(stderr);
      if (code !== 0 || !cpu) reject(new Error(`${args.join(" ")}: exit ${code}: ${stderr.slice(-500)}`));
      else done({ wall: performance.now() - started, cpu: Number(cpu[1]) });
    });
  });
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** value / against, or a dash when the anchor was left out (--only). */
const ratio = (value, against) => (against === undefined ? "–" : `${(value / against).toFixed(2)}x`);
/** Runs every candidate `runs` times, interleaved, the order reversed every other run. */
async function interleaved(candidates, run) {
  const samples = candidates.map(() => []);
  for (let round = 0; round < runs; round++) {
    const order = candidates.map((_, index) => index);
    for (const index of round % 2 ? order.reverse() : order) samples[index].push(await run(candidates[index]));
  }
  return samples;
}

/** The first-answer table: each server's medians, and ratios against both Fuse servers. */
function printServers(candidates, samples) {
  const fuse = [1, 2].map((n) => candidates.findIndex((candidate) => candidate.name.startsWith(`Fuse server ${n}`)));
  const echo = candidates.findIndex((candidate) => candidate.echo);
  const floor = candidates.findIndex((candidate) => candidate.floor);
  const med = (index, key) => (index < 0 ? undefined : median(samples[index].map((sample) => sample[key])));
  const extra = settleSeconds + idleSeconds > 0 ? " RSS MB, median (range) | idle CPU, % of a core |" : "";
  const latency = latencyCalls > 0 ? " search p50 over stdio, ms |" : "";
  console.log(
    `| server | first answer, wall ms (range) | vs echo | vs warm floor | vs Fuse 1 | vs Fuse 2 | CPU ms to it (range) | vs echo | vs warm floor | vs Fuse 1 | vs Fuse 2 | retries |${latency}${extra}`,
  );
  console.log(
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${latency ? "---:|" : ""}${extra ? "---:|---:|" : ""}`,
  );
  for (const [index, candidate] of candidates.entries()) {
    const [wall, cpu] = [med(index, "wall"), med(index, "cpu")];
    const walls = samples[index].map((sample) => sample.wall);
    const cpus = samples[index].map((sample) => sample.cpu);
    const cells = [
      `${Math.round(wall)} (${Math.round(Math.min(...walls))}–${Math.round(Math.max(...walls))})`,
      ratio(wall, med(echo, "wall")),
      ratio(wall, med(floor, "wall")),
      ratio(wall, med(fuse[0], "wall")),
      ratio(wall, med(fuse[1], "wall")),
      `${Math.round(cpu)} (${Math.round(Math.min(...cpus))}–${Math.round(Math.max(...cpus))})`,
      ratio(cpu, med(echo, "cpu")),
      ratio(cpu, med(floor, "cpu")),
      ratio(cpu, med(fuse[0], "cpu")),
      ratio(cpu, med(fuse[1], "cpu")),
    ];
    cells.push(samples[index].map((sample) => sample.retries).join(","));
    if (latency) cells.push(med(index, "latency").toFixed(2));
    if (extra) {
      const rss = samples[index].map((sample) => sample.rss);
      cells.push(
        `${med(index, "rss").toFixed(0)} (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)})`,
        med(index, "idle").toFixed(2),
      );
    }
    console.log(`| ${candidate.name} | ${cells.join(" | ")} |`);
  }
}

/** Fills the warm candidates' cache folder: servers' first searches, then their stops, and one `list`. */
async function warmUp(root) {
  mkdirSync(warmDir(root), { recursive: true });
  if (only.test("warm floor (warm-floor.mjs)"))
    await serve({
      name: "warm-up",
      args: [anchor("warm-floor.mjs"), root, join(warmDir(root), "warm-floor.json")],
      tool: "search",
    });
  if (
    only.test("skills-kernel warm, 3 skills (examples/skills)") ||
    only.test("skills-kernel list warm, 3 skills (examples/skills)")
  )
    await serve({
      name: "warm-up",
      args: [kernel, "--skills-dir", EXAMPLES, "--cache-dir", warmDir(EXAMPLES)],
      tool: "search_skills",
      echo: true,
    });
  if (!only.test("skills-kernel warm") && !only.test("skills-kernel list warm")) return;
  // Twice: a stop may cut a large snapshot's write short, and the next start writes the rest.
  for (let start = 0; start < 2; start++)
    await serve({
      name: "warm-up",
      args: [kernel, "--skills-dir", root, "--cache-dir", warmDir(root)],
      tool: "search_skills",
    });
  await once({ args: [kernel, "list", "--skills-dir", root, "--cache-dir", warmDir(root)] });
}

const load = () =>
  loadavg()
    .map((figure) => figure.toFixed(1))
    .join(" ");
console.log(
  `# scale benchmark, node ${process.version}, ${runs} interleaved runs, ${values.flat ? "SKILL.md-only" : "real-shaped"} catalogs, kernel ${values.kernel}\n`,
);
for (const size of values.sizes.split(",").map(Number)) {
  const root = values.flat
    ? await makeCatalog(size, join(tmpdir(), `skills-kernel-scale-${size}`))
    : await makeRealCatalog(size, join(tmpdir(), `skills-kernel-scale-real-${size}`));
  console.log(`## ${size.toLocaleString("en")} skills (${root})\n\nload average before: ${load()}\n`);
  const candidates = servers(root);
  await warmUp(root);
  const samples = await interleaved(candidates, serve);
  if (candidates.length > 0) printServers(candidates, samples);
  const oneShots = commands(root);
  const lists = await interleaved(oneShots, once);
  const floorFiles = ["read-all.mjs", "read-all-2.mjs", "list-floor.mjs", "list-floor-2.mjs"];
  const floors = floorFiles.map((file) => oneShots.findIndex((command) => command.name.startsWith(file)));
  const lmed = (index, key) => (index < 0 ? undefined : median(lists[index].map((sample) => sample[key])));
  console.log(
    `\n| command | wall ms (range) | vs read-all | CPU ms (range) | ${floorFiles.map((file) => `CPU vs ${file.replace(".mjs", "")}`).join(" | ")} |\n|---|---:|---:|---:|${"---:|".repeat(floors.length)}`,
  );
  /** A command's median and range of one measure, in whole ms. */
  const spread = (index, key) => {
    const values = lists[index].map((sample) => sample[key]);
    return `${Math.round(lmed(index, key))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
  };
  for (const [index, command] of oneShots.entries()) {
    const [wall, cpu] = [lmed(index, "wall"), lmed(index, "cpu")];
    const cells = [
      spread(index, "wall"),
      ratio(wall, lmed(floors[0], "wall")),
      spread(index, "cpu"),
      ...floors.map((floor) => ratio(cpu, lmed(floor, "cpu"))),
    ];
    console.log(`| ${command.name} | ${cells.join(" | ")} |`);
  }
  console.log(`\nload average after: ${load()}\n`);
}
