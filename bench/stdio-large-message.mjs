// One 9.5 MB JSON-RPC message through a real stdio server, end to end: the time from the first
// byte written to the reply, for each bundle given, runs interleaved. The baseline of #14 item 6
// is the bundle before the stdio transport of our own; build it from that commit into a folder
// of its own and name both:
//
//   mkdir /tmp/sk-base && git archive 7302482 | tar -x -C /tmp/sk-base && ln -s "$PWD/node_modules" /tmp/sk-base/
//   (cd /tmp/sk-base && node scripts/build.mjs --bundle-only)
//   npm run build && node bench/stdio-large-message.mjs --runs 7 --cli /tmp/sk-base/dist/cli.js --cli dist/cli.js
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    mb: { type: "string", default: "9.5" },
    cli: { type: "string", multiple: true },
  },
});
const clis = values.cli ?? ["dist/cli.js"];
const runs = Number(values.runs);
const filler = "x".repeat(Math.round(Number(values.mb) * 1024 * 1024) - 200);
const message = `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: { filler } } })}\n`;
const initialize = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
})}\n`;

function once(cli) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "--skills-dir", "examples/skills"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    let buffer = "";
    let started = 0;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(Number.NaN);
    }, 120_000);
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffer += chunk;
      if (started === 0 && buffer.includes('"id":1')) {
        started = performance.now();
        child.stdin.write(message);
      } else if (started !== 0 && buffer.includes('"id":2')) {
        const elapsed = performance.now() - started;
        clearTimeout(timer);
        child.kill();
        resolve(elapsed);
      }
    });
    child.stdin.write(initialize);
  });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const times = clis.map(() => []);
for (let run = 0; run < runs; run++) for (const [index, cli] of clis.entries()) times[index].push(await once(cli));
console.log(`one ${values.mb} MB message to the reply, ${runs} runs each, Node ${process.version}`);
for (const [index, cli] of clis.entries()) {
  const value = median(times[index]);
  console.log(
    `${cli.padEnd(40)} median ${value.toFixed(0).padStart(7)} ms  (${(value / median(times[0])).toFixed(3)}x the first)`,
  );
}
