// A greedy HTTP client beside a well-behaved one (issue 34, item 5): the greedy client (from
// 127.0.0.2, a process of its own so that reading its answers never delays the good client's)
// keeps `--batches` stateless 2025-11-25 batches of `--batch-size` (20) `fetch_skill_files` calls in flight, each
// call asking for five 1 MiB files; the good client (127.0.0.1) calls `read_skill` on a small
// skill one call after another. Each round measures, on the same server: the good client alone
// (the idle baseline); one greedy call alone; the good client under the greedy load, with the
// greedy batches' time and the server's peak RSS; and the good client while `--hogs` processes
// that only spin keep the cores busy (the floor the machine itself sets: no server work at all).
// Each server runs with bench/loop-delay.mjs preloaded: how long its event loop was held under
// the greedy load (a request arriving then waits that long).
// `--same-address` adds a phase with the greedy client on the good client's own address
// (127.0.0.1: two users behind one NAT), beside the phase with it on another; `--keep-alive` has
// both clients keep their connections open, as HTTP clients' pools do, instead of one per request.
// `--kernel` runs another build's CLI (an older build, to compare in the same run); `--anchor`
// also runs the plain SDK v2 server of bench/anchors/files-http-server.mjs; `--http-options JSON`
// adds options to the http plugin's.
//
//   npm run build && node bench/work-bounds.mjs [--rounds 3] [--seconds 10] [--batches 10] [--batch-size 20] [--hogs 2] [--same-address] [--keep-alive] [--anchor] [--kernel PATH/cli.js]... [--http-options JSON]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    batches: { type: "string", default: "10" },
    "batch-size": { type: "string", default: "20" },
    hogs: { type: "string", default: "2" },
    kernel: { type: "string", multiple: true, default: ["dist/cli.js"] },
    anchor: { type: "boolean", default: false },
    "same-address": { type: "boolean", default: false },
    "keep-alive": { type: "boolean", default: false },
    "http-options": { type: "string", default: "{}" },
    // Internal: this script run as the greedy client's own process (URL, then ms to run).
    "greedy-url": { type: "string" },
    "greedy-ms": { type: "string" },
    "greedy-from": { type: "string", default: "127.0.0.2" },
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
  for (let i = 1; i <= 5; i++)
    writeFileSync(
      join(dir, "big", "references", `part-${i}.md`),
      line.repeat(Math.ceil((1024 * 1024) / line.length)).slice(0, 1024 * 1024),
    );
  mkdirSync(join(dir, "small"));
  writeFileSync(
    join(dir, "small", "SKILL.md"),
    "---\nname: small\ndescription: A short skill a good client reads.\n---\n# Small\n\nDo the small thing.\n",
  );
  const http = { stateless: true, port: 0, ...JSON.parse(values["http-options"]) };
  const config = {
    plugins: [["fs", { roots: [{ path: dir, source: "bench" }] }], "read-skill", "fetch-skill-files", ["http", http]],
  };
  writeFileSync(join(dir, "bench.config.json"), JSON.stringify(config));
  return dir;
}

const ANCHOR = "bench/anchors/files-http-server.mjs";
const LOOP_DELAY = new URL("./loop-delay.mjs", import.meta.url).href;

function start(cli, skillsDir) {
  const args =
    cli === ANCHOR
      ? [ANCHOR, skillsDir]
      : [cli, "serve", "--transport", "http", "--config", join(skillsDir, "bench.config.json")];
  const child = spawn(process.execPath, ["--import", LOOP_DELAY, ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  /** The loop's delay second by second (bench/loop-delay.mjs): p99 and max, in ms. */
  const delays = [];
  return new Promise((resolve, reject) => {
    let stderr = "";
    let url;
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      const lines = stderr.split("\n");
      stderr = lines.pop();
      for (const line of lines) {
        const delay = /^loop-delay p50 [\d.]+ p99 ([\d.]+) max ([\d.]+)$/.exec(line);
        if (delay) delays.push({ p99: Number(delay[1]), max: Number(delay[2]) });
        const listening = url ? undefined : /listening on (http:\/\/\S+)/.exec(line);
        if (listening) resolve({ child, url: (url = new URL(listening[1])), delays });
      }
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** With --keep-alive, one pool of kept-open connections per local address; else a connection per request. */
const agents = new Map();
function agentFor(localAddress) {
  if (!values["keep-alive"]) return false;
  if (!agents.has(localAddress)) agents.set(localAddress, new Agent({ keepAlive: true, localAddress }));
  return agents.get(localAddress);
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
        agent: agentFor(localAddress),
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
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
const BATCH_SIZE = Number(values["batch-size"]);
const GREEDY_CALLS = Array.from({ length: BATCH_SIZE }, (_, i) =>
  call(i + 1, "fetch_skill_files", { skill_name: "big", file_paths: PARTS }),
);
// A batch of one is sent as a plain request, as a client calling one tool at a time sends it.
const GREEDY_BATCH = BATCH_SIZE === 1 ? GREEDY_CALLS[0] : GREEDY_CALLS;
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

/** The greedy client (from `from`) in a process of its own for `ms`: its batches' times and statuses. */
function greedyProcess(url, ms, from = "127.0.0.2") {
  const own = ["--batches", values.batches, "--batch-size", values["batch-size"], "--greedy-from", from];
  if (values["keep-alive"]) own.push("--keep-alive");
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), "--greedy-url", url.href, "--greedy-ms", String(ms), ...own],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the greedy client exited ${code}`)),
    ),
  );
}

/** `count` processes that only spin, each keeping a core busy until killed. */
function spinners(count) {
  return Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}

/** `batches` greedy batches kept in flight until `until`: their times and statuses. */
async function greedyClient(url, batches, until, from) {
  const times = [];
  const statuses = {};
  await Promise.all(
    Array.from({ length: batches }, async () => {
      while (performance.now() < until) {
        const { status, ms } = await post(url, from, GREEDY_BATCH);
        statuses[status] = (statuses[status] ?? 0) + 1;
        times.push(ms);
      }
    }),
  );
  return { times, statuses };
}

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length * q)];
};
const median = (xs) => quantile(xs, 0.5);

async function measure(cli, skillsDir) {
  const { child, url, delays } = await start(cli, skillsDir);
  // The good client under a greedy load started beside it: measured from a second in, once the
  // greedy process is up and its requests in flight.
  const underLoad = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return goodClient(url, performance.now() + seconds * 1000);
  };
  try {
    // The anchor has no /readyz: it listens once it can answer.
    for (let i = 0; cli !== ANCHOR && i < 600 && (await fetch(new URL("/readyz", url))).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 100));
    await goodClient(url, performance.now() + 1000);
    const idle = await goodClient(url, performance.now() + seconds * 1000);
    // What one greedy call costs with nothing else running: the server's turns a good call may wait behind.
    const alone = [];
    for (let i = 0; i < 10; i++) alone.push((await post(url, "127.0.0.2", GREEDY_CALLS[0])).ms);
    let peak = rssMiB(child.pid);
    const before = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 200);
    const loadedFrom = delays.length;
    const [loaded, greedy] = await Promise.all([underLoad(), greedyProcess(url, (seconds + 1) * 1000)]);
    clearInterval(sampler);
    const loadedDelays = delays.slice(loadedFrom);
    // The same greedy load from the good client's own address: one client to the server's bounds.
    const sameAddress = values["same-address"]
      ? (await Promise.all([underLoad(), greedyProcess(url, (seconds + 1) * 1000, "127.0.0.1")]))[0]
      : undefined;
    const hogs = spinners(Number(values.hogs));
    let hogged;
    try {
      hogged = await goodClient(url, performance.now() + seconds * 1000);
    } finally {
      for (const hog of hogs) hog.kill("SIGKILL");
    }
    return {
      hoggedP50: median(hogged.times),
      idleP50: median(idle.times),
      greedyAlone: median(alone),
      loadedP50: median(loaded.times),
      sameP50: sameAddress && median(sameAddress.times),
      sameP90: sameAddress && quantile(sameAddress.times, 0.9),
      sameCalls: sameAddress?.times.length,
      loadedP90: quantile(loaded.times, 0.9),
      loopDelayP99: median(loadedDelays.map((delay) => delay.p99)),
      loopDelayMax: Math.max(...loadedDelays.map((delay) => delay.max)),
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

if (values["greedy-url"]) {
  const result = await greedyClient(
    new URL(values["greedy-url"]),
    Number(values.batches),
    performance.now() + Number(values["greedy-ms"]),
    values["greedy-from"],
  );
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

const servers = values.anchor ? [...values.kernel, ANCHOR] : values.kernel;
const skillsDir = makeSkills();
const load1 = () => loadavg()[0].toFixed(2);
console.log(
  `${values.batches} greedy batches of ${BATCH_SIZE} x 5 x 1 MiB beside one good client, ${values.hogs} spinning processes, ${seconds} s a phase, ${values.rounds} rounds${values["keep-alive"] ? ", connections kept alive" : ""}; load ${load1()}`,
);
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const cli of round % 2 === 1 ? servers : [...servers].reverse()) {
      const r = await measure(cli, skillsDir);
      console.log(
        `round ${round} ${cli}: good p50 idle ${r.idleP50.toFixed(1)} ms, loaded ${r.loadedP50.toFixed(1)} ms (${(r.loadedP50 / r.idleP50).toFixed(2)}x; p90 ${r.loadedP90.toFixed(1)} ms; ` +
          `${r.loadedCalls} calls, ${r.loadedFailed} failed; the server's loop delay p99 ${r.loopDelayP99.toFixed(0)} ms a second (median), max ${r.loopDelayMax.toFixed(0)} ms), beside ${values.hogs} spinning processes ${r.hoggedP50.toFixed(1)} ms (${(r.hoggedP50 / r.idleP50).toFixed(2)}x); one greedy call alone ${r.greedyAlone.toFixed(1)} ms; greedy batch median ${(r.greedyMedian / 1000).toFixed(1)} s, max ${(r.greedyMax / 1000).toFixed(1)} s, ` +
          `statuses ${JSON.stringify(r.greedyStatuses)}; RSS ${r.rssBefore.toFixed(0)} -> peak ${r.rssPeak.toFixed(0)} MiB; ` +
          (r.sameP50 === undefined
            ? ""
            : `greedy on the good client's address: good p50 ${r.sameP50.toFixed(1)} ms (${(r.sameP50 / r.idleP50).toFixed(2)}x), p90 ${r.sameP90.toFixed(1)} ms, ${r.sameCalls} calls; `) +
          `load ${load1()}`,
      );
    }
  }
} finally {
  rmSync(skillsDir, { recursive: true, force: true });
}
