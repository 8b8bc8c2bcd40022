// The bytes of an answer at each protocol revision, over Streamable HTTP from the shipped bundle:
// the same tool calls from a 2025-11-25 client and a 2026-07-28 one, each JSON-RPC response's
// bytes as sent (the SSE event's data at 2025-11-25), and what its parts take. Sizes only: no timing.
//
//   node bench/answer-sizes.mjs [--skills-dir ../shared/corpus] [--kernel dist/cli.js]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const { values } = parseArgs({
  options: {
    "skills-dir": { type: "string", default: fileURLToPath(new URL("../../shared/corpus", import.meta.url)) },
    kernel: { type: "string", default: fileURLToPath(new URL("../dist/cli.js", import.meta.url)) },
  },
});
const CALLS = [
  { name: "search_skills", arguments: { query: "extract tables from pdf" } },
  { name: "list_skills", arguments: { format: "json", limit: 20 } },
];

const server = spawn(
  process.execPath,
  [values.kernel, "serve", "--transport", "http", "--port", "0", "--skills-dir", values["skills-dir"]],
  { stdio: ["ignore", "ignore", "pipe"] },
);
const url = await new Promise((resolve, reject) => {
  let stderr = "";
  server.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(stderr);
    if (match) resolve(new URL(match[1]));
  });
  server.on("exit", (code) => reject(new Error(`the server exited (${code}):\n${stderr}`)));
});

const size = (value) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
const rows = [];
for (const revision of ["2025-11-25", "2026-07-28"]) {
  const bodies = [];
  const recording = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    const frames = response.headers.get("content-type")?.startsWith("text/event-stream")
      ? text.split("\n").flatMap((line) => (line.startsWith("data: ") ? [line.slice(6)] : []))
      : [text];
    bodies.push(...frames.filter((frame) => frame.includes('"result"')));
    return response;
  };
  const client = new Client(
    { name: "answer-sizes", version: "0" },
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : undefined,
  );
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording }));
  for (const call of CALLS) {
    bodies.length = 0;
    await client.callTool(call);
    const body = bodies.at(-1);
    const { result } = JSON.parse(body);
    rows.push(
      `| ${call.name} | ${revision} | ${Buffer.byteLength(body)} | ${size(result.content)} | ${size(result.structuredContent)} | ${size(result._meta)} |`,
    );
  }
  await client.close();
}
server.kill("SIGTERM");
console.log(`# answer sizes over HTTP, ${values["skills-dir"]}, ${values.kernel}\n`);
console.log(
  "| call | revision | response bytes | content | structuredContent | _meta |\n|---|---|---:|---:|---:|---:|",
);
for (const row of rows) console.log(row);
