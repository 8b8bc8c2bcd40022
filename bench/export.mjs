// `skills-kernel export DIR --out SITE` beside `tar -czf` of the same folder, interleaved: a cold
// export (a new SITE and a new cache folder), an export again into that SITE with no folder
// changed, and the tar. CPU is user + system from /usr/bin/time; wall from it too. Medians and
// ranges over the rounds, with the load and the catalog's shape. A cold export with the audit off
// (skill-policy `audit: { "*": "off" }`) splits what tar also does from the audit tar does not.
// `--before` adds cold exports, audit on and off, by another build (the tree before a change, its
// `dist/cli.js`).
//
//   node scripts/build.mjs && node bench/export.mjs [--skills-dir ../shared/corpus] [--rounds 3] [--before CLI]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "skills-dir": { type: "string", default: fileURLToPath(new URL("../../shared/corpus", import.meta.url)) },
    rounds: { type: "string", default: "3" },
    before: { type: "string" },
  },
});
const dir = values["skills-dir"];
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "bench-export-"));
// DIR stays the export's folder; the config adds only the policy.
const auditOff = join(work, "audit-off.json");
writeFileSync(auditOff, JSON.stringify({ plugins: ["fs", ["skill-policy", { audit: { "*": "off" } }]] }));

/** One command under /usr/bin/time: wall and CPU in ms, and its stdout. */
function timed(command, args, env = process.env) {
  const run = spawnSync("/usr/bin/time", ["-f", "time %e %U %S", command, ...args], {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const [, wall, user, system] = /time ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr) ?? [];
  if (run.status !== 0 || wall === undefined) throw new Error(`${command} ${args.join(" ")} failed:\n${run.stderr}`);
  return { wallMs: Number(wall) * 1000, cpuMs: (Number(user) + Number(system)) * 1000, stdout: run.stdout };
}

function shape() {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return `${files} files, ${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

const rows = {
  "export, cold": [],
  "export again, unchanged": [],
  "export, cold, audit off": [],
  ...(values.before && { "export, cold, before": [], "export, cold, audit off, before": [] }),
  "tar -czf": [],
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
console.log(`# export vs tar -czf: ${dir} (${shape()}), ${values.rounds} rounds, load before ${load()}\n`);
let summary = "";
for (let round = 0; round < Number(values.rounds); round++) {
  const site = join(work, `site-${round}`);
  const env = { ...process.env, XDG_CACHE_HOME: join(work, `cache-${round}`) };
  rows["tar -czf"].push(timed("tar", ["-czf", join(work, `corpus-${round}.tar.gz`), "-C", dir, "."]));
  const cold = timed(process.execPath, [cli, "export", dir, "--out", site], env);
  rows["export, cold"].push(cold);
  const again = timed(process.execPath, [cli, "export", dir, "--out", site], env);
  rows["export again, unchanged"].push(again);
  summary = `${cold.stdout.trim()}\n${again.stdout.trim()}`;
  rmSync(site, { recursive: true, force: true });
  const offEnv = { ...process.env, XDG_CACHE_HOME: join(work, `cache-off-${round}`) };
  const off = timed(process.execPath, [cli, "export", dir, "--config", auditOff, "--out", site], offEnv);
  rows["export, cold, audit off"].push(off);
  // The same site, or the row measures something else.
  if (off.stdout.replace(/\(.*\)/, "") !== cold.stdout.replace(/\(.*\)/, ""))
    throw new Error(`the export with the audit off differs:\n${off.stdout}\n${cold.stdout}`);
  rmSync(site, { recursive: true, force: true });
  if (values.before) {
    const env = { ...process.env, XDG_CACHE_HOME: join(work, `cache-before-${round}`) };
    rows["export, cold, before"].push(timed(process.execPath, [values.before, "export", dir, "--out", site], env));
    rmSync(site, { recursive: true, force: true });
    const offEnv = { ...process.env, XDG_CACHE_HOME: join(work, `cache-off-before-${round}`) };
    const off = [values.before, "export", dir, "--config", auditOff, "--out", site];
    rows["export, cold, audit off, before"].push(timed(process.execPath, off, offEnv));
    rmSync(site, { recursive: true, force: true });
  }
}
rmSync(work, { recursive: true, force: true });

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const range = (list) => `${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)}`;
const tarCpu = median(rows["tar -czf"].map((r) => r.cpuMs));
const tarWall = median(rows["tar -czf"].map((r) => r.wallMs));
console.log("| run | CPU ms, median (range) | wall ms, median (range) | CPU ÷ tar | wall ÷ tar |");
console.log("|---|---|---|---|---|");
for (const [name, runs] of Object.entries(rows)) {
  const cpu = runs.map((r) => r.cpuMs);
  const wall = runs.map((r) => r.wallMs);
  console.log(
    `| ${name} | ${median(cpu).toFixed(0)} (${range(cpu)}) | ${median(wall).toFixed(0)} (${range(wall)}) | ${(median(cpu) / tarCpu).toFixed(2)}× | ${(median(wall) / tarWall).toFixed(2)}× |`,
  );
}
console.log(`\nlast round's summaries:\n${summary}\nload after ${load()}`);
