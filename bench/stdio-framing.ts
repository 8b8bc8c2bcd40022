// Reading one large message on stdio: SDK v2's StdioServerTransport (the baseline named by #14,
// item 6) beside skills-kernel's LineTransport. Each run pushes one 9.5 MB JSON-RPC line through a
// stream in 64 KiB chunks, as a pipe delivers it, and times until the transport hands the parsed
// message over. Runs alternate between the two so machine noise hits both alike.
//
//   npx tsx bench/stdio-framing.ts [--runs 7] [--mb 9.5]
import { PassThrough } from "node:stream";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Transport } from "@modelcontextprotocol/server";
import { createLogger } from "../src/kernel/logger.js";
import { LineTransport } from "../src/plugins/transports/stdio/line-transport.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "7" }, mb: { type: "string", default: "9.5" } },
});
const runs = Number(values.runs);
const bytes = Math.round(Number(values.mb) * 1024 * 1024);
const CHUNK = 64 * 1024;

const filler = "x".repeat(bytes - 100);
const line = Buffer.from(
  `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { filler } } })}\n`,
);

const candidates: { name: string; make: (input: PassThrough, output: PassThrough) => Transport }[] = [
  {
    name: "SDK StdioServerTransport (baseline; its limit raised so the line fits)",
    make: (input, output) => new StdioServerTransport(input, output, { maxBufferSize: 64 * 1024 * 1024 }),
  },
  {
    name: "LineTransport (skills-kernel)",
    make: (input, output) =>
      new LineTransport(input, output, { maxMessageBytes: 16 * 1024 * 1024, logger: createLogger("silent") }),
  },
];

async function once(make: (input: PassThrough, output: PassThrough) => Transport): Promise<number> {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = make(input, output);
  const received = new Promise<void>((resolve) => (transport.onmessage = () => resolve()));
  await transport.start();
  const started = performance.now();
  for (let at = 0; at < line.length; at += CHUNK) input.write(line.subarray(at, at + CHUNK));
  await received;
  const elapsed = performance.now() - started;
  await transport.close();
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times = candidates.map(() => [] as number[]);
for (let run = 0; run < runs; run++) {
  for (const [index, candidate] of candidates.entries()) times[index]!.push(await once(candidate.make));
}
const baseline = median(times[0]!);
console.log(
  `one ${(line.length / 1024 / 1024).toFixed(2)} MiB line in ${CHUNK / 1024} KiB chunks, ${runs} runs each, Node ${process.version}`,
);
for (const [index, candidate] of candidates.entries()) {
  const value = median(times[index]!);
  console.log(
    `${candidate.name.padEnd(72)} median ${value.toFixed(1).padStart(8)} ms  (${(value / baseline).toFixed(3)}x baseline)`,
  );
}
