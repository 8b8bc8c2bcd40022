// Warm restarts: time from spawn to the first list_skills answer over 10,000 skills on disk, for
// a server without a persistent cache (cache-memory with --no-disk-cache), one over the snapshot
// the previous run left in the cache folder (cache-memory, the default), one whose Redis is empty
// (cold), and one restarted over the snapshot the previous run left in Redis (warm). They
// run interleaved so machine noise hits them alike; each run is a fresh process
// (docs/benchmarks.md, "Warm restarts"). The config serves fs (not watched) and list-skills
// alone, so what is timed is the load: a watcher and the search index warming up would run
// alongside it, the same in every row.
//
//   npm run build && npm run bench:warm-start [-- --skills 10000 --runs 10]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { TestRedis } from "../test/helpers/redis.js";
import { writeSkillFolders } from "./skill-folders.js";
import { loadSeedSkills, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: { skills: { type: "string", default: "10000" }, runs: { type: "string", default: "10" } },
});
const count = Number(values.skills);
const runs = Number(values.runs);
const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "dist/cli.js");
if (!existsSync(cli)) throw new Error("dist/cli.js is missing: run npm run build first");

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}

/**
 * CPU time a process has used so far, from /proc (Linux; clock ticks of 10 ms): on a machine
 * shared with other work, wall time says how long an agent waited, CPU time what the load cost.
 */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Spawn a server and time until its first list_skills answer (listing `expected` skills); resolves once the process has exited. */
function timeFirstList(args: readonly string[], expected: number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
    let buffered = "";
    let sample: Sample = { wallMs: 0, cpuMs: 0 };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no list_skills answer in 120 s`));
    }, 120_000);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (message.id === 1) {
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
          child.stdin.write(
            JSON.stringify({
              jsonrpc: "2.0",
              id: 2,
              method: "tools/call",
              params: { name: "list_skills", arguments: {} },
            }) + "\n",
          );
        } else if (message.id === 2) {
          sample = { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid) };
          const total = message.result?.structuredContent?.total;
          if (total !== expected) reject(new Error(`list_skills listed ${total} skills, not ${expected}`));
          clearTimeout(timer);
          // Closing stdin ends the server; its cache writes land before it exits.
          child.stdin.end();
        }
      }
    });
    child.on("error", reject);
    child.on("close", () => resolve(sample));
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

const dir = await mkdtemp(join(tmpdir(), "sk-warm-"));
let redis: TestRedis | undefined;
let emptyDir: string | undefined;
try {
  const seed = await loadSeedSkills();
  await writeSkillFolders(dir, syntheticCatalog(seed.skills, count));
  // Files and folders written in the last two seconds are not kept in a snapshot ("racily
  // clean", docs/caching.md): past that, every run sees the catalog as an older one on disk.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  redis = await TestRedis.start();
  const port = redis.port;
  const url = `${redis.url}/0`;
  const config = join(dir, "..", `${basename(dir)}.config.json`);
  await writeFile(config, JSON.stringify({ plugins: [["fs", { roots: [dir], watch: false }], "list-skills"] }));
  // The same server over a root with no skill: what every start pays before and besides the
  // load (Node, the bundle, the Redis client and its connection, the handshake), which no cache
  // can save. It bounds what any warm start can gain.
  const empty = await mkdtemp(join(tmpdir(), "sk-warm-empty-"));
  emptyDir = empty;
  const emptyConfig = `${empty}.config.json`;
  await writeFile(emptyConfig, JSON.stringify({ plugins: [["fs", { roots: [empty], watch: false }], "list-skills"] }));
  const base = ["--config", config, "--log-level", "warn"];
  const candidates = [
    {
      name: "no persistent cache: cache-memory, --no-disk-cache (baseline)",
      args: [...base, "--cache", "memory", "--no-disk-cache"],
      skills: count,
      before: async () => {},
    },
    {
      name: "cache-redis, cold: Redis emptied first",
      args: [...base, "--cache", url],
      skills: count,
      before: () => run("redis-cli", ["-p", String(port), "flushdb"]),
    },
    {
      name: "cache-redis, warm: the previous run's snapshot",
      args: [...base, "--cache", url],
      skills: count,
      before: async () => {},
    },
    {
      name: "cache-memory, the default: the previous run's snapshot in the cache folder",
      args: [...base, "--cache", "memory", "--cache-dir", `${dir}.cache`],
      skills: count,
      before: async () => {},
    },
    {
      name: "floor: cache-redis over a root with no skill",
      args: ["--config", emptyConfig, "--log-level", "warn", "--cache", url],
      skills: 0,
      before: async () => {},
    },
  ];
  const samples: Sample[][] = candidates.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, candidate] of candidates.entries()) {
      await candidate.before();
      samples[index]!.push(await timeFirstList(candidate.args, candidate.skills));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const wall = samples.map((runs) => median(runs.map((s) => s.wallMs)));
  const cpu = samples.map((runs) => median(runs.map((s) => s.cpuMs)));
  console.log(
    `first list_skills answer over ${count} skills on disk, ${runs} interleaved runs each (node ${process.version}; seed: ${seed.origin})\n`,
  );
  console.log("| server | median wall ms | min–max wall ms | median CPU ms | wall vs no cache | CPU vs no cache |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [index, candidate] of candidates.entries()) {
    const walls = samples[index]!.map((s) => s.wallMs);
    console.log(
      `| ${candidate.name} | ${wall[index]!.toFixed(0)} | ${Math.min(...walls).toFixed(0)}–${Math.max(...walls).toFixed(0)} | ${cpu[index]!.toFixed(0)} | ${(wall[index]! / wall[0]!).toFixed(2)}x | ${(cpu[index]! / cpu[0]!).toFixed(2)}x |`,
    );
  }
  console.log(
    `\nwarm vs cold Redis: ${(wall[1]! / wall[2]!).toFixed(2)}x faster (wall), ${(cpu[1]! / cpu[2]!).toFixed(2)}x less CPU; warm vs no cache: ${(wall[0]! / wall[2]!).toFixed(2)}x faster (wall), ${(cpu[0]! / cpu[2]!).toFixed(2)}x less CPU`,
  );
  console.log(
    `the floor vs no cache (the most any warm start could gain): ${(wall[0]! / wall[4]!).toFixed(2)}x (wall), ${(cpu[0]! / cpu[4]!).toFixed(2)}x (CPU)`,
  );
} finally {
  await redis?.kill();
  await rm(dir, { recursive: true, force: true });
  await rm(join(dir, "..", `${basename(dir)}.config.json`), { force: true });
  await rm(`${dir}.cache`, { recursive: true, force: true });
  if (emptyDir) {
    await rm(emptyDir, { recursive: true, force: true });
    await rm(`${emptyDir}.config.json`, { force: true });
  }
}
