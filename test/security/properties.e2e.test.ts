import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { Client, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { isJSONRPCMessage } from "../helpers/json-rpc.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES } from "../helpers/cli.js";
import { EXAMPLE_SKILLS, RawStdioServer, type Frame } from "../helpers/raw-stdio.js";

// #14's proof: whatever a client sends, the bundled server never crashes, always answers with a
// well-formed result or error, and its memory stays bounded. Runs are bounded (a few hundred
// cases each) so the suite stays fast; a failure prints fast-check's seed and shrunk case.

const RUNS = 250;
/** Far above what the server needs (about 100 MB), far below what a leak over the runs would reach. */
const MAX_RSS_BYTES = 400 * 1024 * 1024;

let work: string;
beforeAll(async () => {
  // Installs land here, never in the repository or the real home folder.
  work = await mkdtemp(join(tmpdir(), "sk-properties-"));
  await writeFile(join(work, "package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Strings an attacker would try: traversal, encodings, controls, bidi marks, huge and empty. */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    "..",
    "../../etc/passwd",
    "/etc/passwd",
    "C:\\Windows",
    "%2e%2e%2f",
    "．．／secret",
    "changelog-curator",
    "examples:changelog-curator",
    "changelog-curator\u202e",
    "a\u0000b",
    ".env",
    "references/../../x",
    "skill://x/../../y",
  ),
  fc.string({ minLength: 1000, maxLength: 5000 }),
);
const jsonValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
);

describe("every tool, with generated arguments, over stdio against the bundle", () => {
  it("answers each call with a result or a one-line error, and keeps serving in bounded memory", async () => {
    const [command, ...prefix] = RUNTIMES.node;
    const transport = new StdioClientTransport({
      command,
      args: [...prefix, "--skills-dir", EXAMPLE_SKILLS],
      cwd: work,
      env: { ...process.env, HOME: work } as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "properties", version: "0" });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.length).toBeGreaterThanOrEqual(6);
      const call = fc.oneof(
        ...tools.map((tool) => {
          const names = Object.keys(tool.inputSchema.properties ?? {});
          // A tool that takes nothing (get_cache_stats) gets only the arbitrary dictionaries.
          const known =
            names.length === 0
              ? fc.constant({})
              : fc.dictionary(fc.constantFrom(...names), jsonValue, { maxKeys: names.length });
          return fc.record({
            name: fc.constant(tool.name),
            arguments: fc.oneof(known, fc.dictionary(fc.string(), jsonValue, { maxKeys: 4 })),
          });
        }),
      );
      await fc.assert(
        fc.asyncProperty(call, async ({ name, arguments: args }) => {
          try {
            const result = await client.callTool({ name, arguments: args });
            expect(Array.isArray(result.content)).toBe(true);
            if (result.isError) {
              const text = (result.content as { type: string; text?: string }[])
                .map((part) => part.text ?? "")
                .join("\n");
              expect(text).not.toMatch(/\n\s+at /);
              expect(text).not.toMatch(/internal error/);
            }
          } catch (error) {
            // Protocol-level refusals are fine; they must be JSON-RPC errors in one line.
            expect(error).toBeInstanceOf(ProtocolError);
            expect((error as ProtocolError).message).not.toContain("\n");
          }
        }),
        { numRuns: RUNS },
      );
      expect(await client.ping()).toEqual({});
      expect(rssOf(transport.pid!)).toBeLessThan(MAX_RSS_BYTES);
      expect(stderr).not.toMatch(/\n\s+at |internal error|Unhandled/);
    } finally {
      await client.close();
    }
  });
});

/** One line a hostile client might send. */
const frame = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        jsonrpc: fc.constantFrom("2.0", "1.0", 2, null),
        id: fc.oneof(
          fc.integer(),
          fc.string({ maxLength: 20 }),
          fc.constant(null),
          fc.double(),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        method: fc.oneof(
          fc.constantFrom(
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "prompts/list",
            "completion/complete",
            "logging/setLevel",
            "notifications/cancelled",
            "notifications/progress",
          ),
          fc.string({ maxLength: 30 }),
        ),
        params: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record(
            {
              name: hostileString,
              arguments: fc.dictionary(fc.string(), jsonValue),
              uri: hostileString,
              cursor: hostileString,
            },
            { requiredKeys: [] },
          ),
        ),
        result: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes.map((byte) => (byte === 0x0a ? 0x20 : byte)))),
);

/** Whether JSON-RPC asks for an error reply to this line: not JSON, or not a message (a broken response excepted). */
function isBroken(line: string | Buffer): boolean {
  const bytes = Buffer.from(line);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return true;
  }
  if (text.trim() === "") return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return true;
  }
  if (isJSONRPCMessage(value)) return false;
  const record =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  return !(record && ("result" in record || "error" in record) && !("method" in record));
}

/** What the server writes must be an MCP JSON-RPC message, as the SDK client parses it. */
function checkFrame(reply: Frame): void {
  expect(isJSONRPCMessage(reply)).toBe(true);
  if ("error" in reply) {
    expect(Number.isInteger(reply.error.code)).toBe(true);
    expect(reply.error.message).not.toContain("\n");
  }
}

describe("raw JSON-RPC frames on stdio against the bundle", () => {
  it("answers every line as JSON-RPC says, never writes anything else, and keeps serving in bounded memory", async () => {
    const server = new RawStdioServer(["--skills-dir", EXAMPLE_SKILLS]);
    try {
      await server.initialize();
      let probe = 0;
      await fc.assert(
        fc.asyncProperty(frame, async (line) => {
          const before = server.frames.length;
          server.write(Buffer.concat([Buffer.from(line), Buffer.from("\n")]));
          // A ping right after: its answer proves the server read the frame and is still serving.
          const id = `probe-${probe++}`;
          server.send({ jsonrpc: "2.0", id, method: "ping" });
          expect(await server.reply(id)).toEqual({ jsonrpc: "2.0", id, result: {} });
          const written = server.frames.slice(before);
          for (const reply of written) checkFrame(reply);
          expect(server.garbage).toEqual([]);
          // A line that is not a JSON-RPC message is answered with an error, and before the ping.
          if (isBroken(line)) {
            const pingAt = written.findIndex((reply) => reply.id === id);
            expect(written.slice(0, pingAt).some((reply) => [-32700, -32600].includes(reply.error?.code))).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
      expect(rssOf(server.child.pid!)).toBeLessThan(MAX_RSS_BYTES);
      expect(server.stderr).not.toMatch(/\n\s+at |internal error|Unhandled/);
      expect(await server.end()).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill("SIGKILL");
    }
  });
});
