// A greedy HTTP client beside a well-behaved one (issue 34, item 5): the greedy client (from
// 127.0.0.2) keeps `--batches` stateless 2025-11-25 batches of 20 `fetch_skill_files` calls in
// flight, each call asking for five 1 MiB files; the good client (127.0.0.1) calls `read_skill`
// on a small skill one call after another. Each round measures the good client alone (the idle
// baseline), one greedy call alone, then under the greedy load, on the same server: the good
// client's p50, the greedy batches' time and the server's peak RSS. `--kernel` runs another
// build's CLI (an older build, to compare in the same run); `--http-options JSON` adds options to
// the http plugin's.
//
//   npm run build && node bench/work-bounds.mjs [--rounds 3] [--seconds 10] [--batches 10] [--kernel PATH/cli.js]... [--http-options JSON]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    batches: { type: "string", default: "10" },
    kernel: { type: "string", multiple: true, default: ["dist/cli.js"] },
    "http-options": { type: "string", default: "{}" },
  },
});
const root = fileURLToPath(new URL("..", import.meta.url));
const seconds = Number(values.seconds);

/** A skills folder: `big` with five 1 MiB text files, `small` with a short SKILL.md. */
function makeSkills() {
  const dir = mkdtempSync(join(tmpdir(), "work-bounds-"));
  mkdirSync(join(dir, "big", "references"), { recursive: true });
  writeFileSync(join(dir, "big", "SKILL.md"), "---\nname: big\ndescription: Five large reference files.\n---\n# Big\n");
  const line = "All work and no play makes a large reference file.\n";
  for (let i = 1; i <= 5; i++) writeFileSync(join(dir, "big", "references", `part-${i}.md`), line.repeat(Math.ceil((1024 * 1024) / line.length)).slice(0, 1024 * 1024));
  mkdirSync(join(dir, "small"));
  writeFileSync(join(dir, "small", "SKILL.md"), "---\nname: small\ndescription: A short skill a good client reads.\n---\n# Small\n\nDo the small thing.\n");
  const http = { stateless: true, port: 0, ...JSON.parse(values["http-options"]) };
  const config = { plugins: [["fs", { roots: [{ path: dir, source: "bench" }] }], "read-skill", "fetch-skill-files", ["http", http]] };
  writeFileSync(join(dir, "bench.config.json"), JSON.stringify(config));
  return dir;
}

function start(cli, skillsDir) {
  const child = spawn(process.execPath, [cli, "serve", "--transport", "http", "--config", join(skillsDir, "bench.config.json")], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** One POST from `localAddress`: its status and time in ms (the body is read and dropped). */
function post(url, localAddress, body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - started }));
        res.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(JSON.stringify(body));
  });
}

const call = (id, name, args) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const PARTS = [1, 2, 3, 4, 5].map((i) => `references/part-${i}.md`);
const GREEDY_BATCH = Array.from({ length: 20 }, (_, i) => call(i + 1, "fetch_skill_files", { skill_name: "big", file_paths: PARTS }));
const GOOD_CALL = call(1, "read_skill", { skill_name: "small" });

/** The good client's calls, one after another, until `until` (ms, performance.now()). */
async function goodClient(url, until) {
  const times = [];
  let failed = 0;
  while (performance.now() < until) {
    const { status, ms } = await post(url, "127.0.0.1", GOOD_CALL);
    if (status === 200) times.push(ms);
    else failed++;
  }
  return { times, failed };
}

/** `batches` greedy batches kept in flight until `until`: their times and statuses. */
async function greedyClient(url, batches, until) {
  const times = [];
  const statuses = {};
  await Promise.all(
    Array.from({ length: batches }, async () => {
      while (performance.now() < until) {
        const { status, ms } = await post(url, "127.0.0.2", GREEDY_BATCH);
        statuses[status] = (statuses[status] ?? 0) + 1;
        times.push(ms);
      }
    }),
  );
  return { times, statuses };
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
};

async function measure(cli, skillsDir) {
  const { child, url } = await start(cli, skillsDir);
  try {
    for (let i = 0; i < 600 && (await fetch(new URL("/readyz", url))).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    await goodClient(url, performance.now() + 1000);
    const idle = await goodClient(url, performance.now() + seconds * 1000);
    // What one greedy call costs with nothing else running: the server's turns a good call may wait behind.
    const alone = [];
    for (let i = 0; i < 10; i++) alone.push((await post(url, "127.0.0.2", GREEDY_BATCH[0])).ms);
    let peak = rssMiB(child.pid);
    const before = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 200);
    const until = performance.now() + seconds * 1000;
    const [loaded, greedy] = await Promise.all([goodClient(url, until), greedyClient(url, Number(values.batches), until)]);
    clearInterval(sampler);
    return {
      idleP50: median(idle.times),
      greedyAlone: median(alone),
      loadedP50: median(loaded.times),
      loadedCalls: loaded.times.length,
      loadedFailed: loaded.failed,
      greedyMedian: median(greedy.times),
      greedyMax: Math.max(...greedy.times),
      greedyStatuses: greedy.statuses,
      rssBefore: before,
      rssPeak: peak,
    };
  } finally {
    child.kill("SIGTERM");
  }
}

const skillsDir = makeSkills();
const load1 = () => loadavg()[0].toFixed(2);
console.log(`${values.batches} greedy batches of 20 x 5 x 1 MiB beside one good client, ${seconds} s a phase, ${values.rounds} rounds; load ${load1()}`);
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const cli of round % 2 === 1 ? values.kernel : [...values.kernel].reverse()) {
      const r = await measure(cli, skillsDir);
      console.log(
        `round ${round} ${cli}: good p50 idle ${r.idleP50.toFixed(1)} ms, loaded ${r.loadedP50.toFixed(1)} ms (${(r.loadedP50 / r.idleP50).toFixed(2)}x; ` +
          `${r.loadedCalls} calls, ${r.loadedFailed} failed); one greedy call alone ${r.greedyAlone.toFixed(1)} ms; greedy batch median ${(r.greedyMedian / 1000).toFixed(1)} s, max ${(r.greedyMax / 1000).toFixed(1)} s, ` +
          `statuses ${JSON.stringify(r.greedyStatuses)}; RSS ${r.rssBefore.toFixed(0)} -> peak ${r.rssPeak.toFixed(0)} MiB; load ${load1()}`,
      );
    }
  }
} finally {
  rmSync(skillsDir, { recursive: true, force: true });
}
