// One cache folder shared by Node, Bun and Deno: `skills-kernel list` over a catalog, runtimes
// taking turns on one cache folder, each start's CPU time (user + system, from /usr/bin/time), the
// SKILL.md files it read (its debug log) and the snapshot files the folder holds after it. Beside
// them, in the same run, the same start on a cache folder only Node ever used: what "warm" costs.
// Bun and Deno come from test/runtimes (`node scripts/test-runtimes.mjs`).
//
//   node bench/runtime-cache.mjs [--skills-dir ../shared/corpus] [--rounds 3]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "skills-dir": { type: "string", default: fileURLToPath(new URL("../../shared/corpus", import.meta.url)) },
    rounds: { type: "string", default: "3" },
  },
});
const repo = fileURLToPath(new URL("..", import.meta.url));
const cli = join(repo, "dist/cli.js");
const bin = (name) => join(repo, "test/runtimes/node_modules/.bin", name);
const RUNTIMES = {
  node: [process.execPath, cli],
  bun: [bin("bun"), cli],
  deno: [bin("deno"), "run", "-A", "--quiet", cli],
};

/** One `list` start on `cache`: CPU ms, SKILL.md files read, snapshot files after it. */
function start(runtime, cache) {
  const [command, ...prefix] = RUNTIMES[runtime];
  const run = spawnSync(
    "/usr/bin/time",
    ["-f", "cpu %U %S", command, ...prefix, "list", "--skills-dir", values["skills-dir"], "--log-level", "debug"],
    { env: { ...process.env, XDG_CACHE_HOME: cache }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const [, user, system] = /cpu ([\d.]+) ([\d.]+)/.exec(run.stderr) ?? [];
  const read = /: (\d+) of \d+ SKILL\.md files read/.exec(run.stderr)?.[1];
  const snapshots = readdirSync(join(cache, "skills-kernel", "snapshots")).filter((name) => name.endsWith(".json"));
  return { cpuMs: Math.round((Number(user) + Number(system)) * 1000), read: Number(read), snapshots: snapshots.length };
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const order = ["node", "deno", "node", "bun", "node", "deno", "bun"];
const rows = new Map();
const record = (name, result) => {
  const row = rows.get(name) ?? { cpu: [], read: [], snapshots: [] };
  row.cpu.push(result.cpuMs);
  row.read.push(result.read);
  row.snapshots.push(result.snapshots);
  rows.set(name, row);
};
execFileSync(process.execPath, [cli, "--version"]);
const nodeOnly = mkdtempSync(join(tmpdir(), "runtime-cache-node-"));
start("node", nodeOnly);
console.log(
  `# one cache folder, runtimes taking turns: ${values["skills-dir"]}, ${values.rounds} rounds, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}\n`,
);
for (let round = 0; round < Number(values.rounds); round++) {
  const shared = mkdtempSync(join(tmpdir(), "runtime-cache-shared-"));
  let previous = "an empty folder";
  for (const runtime of order) {
    record(`${runtime} after ${previous}`, start(runtime, shared));
    previous = runtime;
  }
  record("node after node (a folder only Node uses)", start("node", nodeOnly));
}
console.log("| start | CPU ms (median) | SKILL.md read | snapshot files after |\n|---|---:|---:|---:|");
for (const [name, row] of rows)
  console.log(
    `| ${name} | ${median(row.cpu)} (${Math.min(...row.cpu)}–${Math.max(...row.cpu)}) | ${median(row.read)} | ${median(row.snapshots)} |`,
  );
console.log(
  `\nload after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
