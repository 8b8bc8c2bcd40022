import { PassThrough } from "node:stream";
import fc from "fast-check";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../../src/kernel/logger.js";
import { LineTransport } from "../../../../src/plugins/transports/stdio/line-transport.js";

/** A transport over in-memory streams, with what it handed over, wrote and logged. */
async function open(maxMessageBytes = 1024) {
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: string[] = [];
  const transport = new LineTransport(input, output, {
    maxMessageBytes,
    logger: createLogger("warn", (line) => logs.push(line)),
  });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  let closed = false;
  transport.onclose = () => (closed = true);
  await transport.start();
  const written = () =>
    String(output.read() ?? "")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { input, output, transport, received, logs, written, closed: () => closed };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("LineTransport framing", () => {
  it("hands over the same messages however the bytes are split into chunks", async () => {
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: "x", method: "tools/list", params: { cursor: "ü€𝄞" } },
    ];
    const bytes = Buffer.from(messages.map((message) => `${JSON.stringify(message)}\r\n`).join(""));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const { input, received, logs } = await open();
          let start = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            input.write(bytes.subarray(start, cut));
            start = cut;
          }
          input.write(bytes.subarray(start));
          await tick();
          expect(received).toEqual(messages);
          expect(logs).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("takes a message of exactly the limit and refuses one byte more, then goes on", async () => {
    const { input, received, written, logs } = await open(100);
    const fitting = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { pad: "" } } });
    const exact = fitting.replace('"pad":""', `"pad":"${"x".repeat(100 - fitting.length)}"`);
    expect(Buffer.byteLength(exact)).toBe(100);
    const over = exact.replace('"pad":"', '"pad":"x');
    input.write(`${exact}\n${over.slice(0, 50)}`);
    input.write(`${over.slice(50)}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
    await tick();
    expect(received.map((message) => (message as { id: number }).id)).toEqual([1, 2]);
    expect(written()).toEqual([
      {
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message: "Invalid Request: the message is longer than 100 bytes, the stdio transport's maxMessageBytes",
        },
      },
    ]);
    expect(logs).toHaveLength(1);
  });

  it("skips blank lines, and does not answer a broken response or notification", async () => {
    const { input, received, written, logs } = await open();
    input.write(
      '\n  \n{"jsonrpc":"2.0","id":5,"result":7}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}\n',
    );
    await tick();
    expect(received).toEqual([]);
    expect(written()).toEqual([]);
    expect(logs).toHaveLength(2);
  });

  it("waits for drain through one listener however many replies are queued, and closes on EPIPE", async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 16 });
    const transport = new LineTransport(input, output, { maxMessageBytes: 1024, logger: createLogger("silent") });
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    const sends = Array.from({ length: 50 }, (_, id) => transport.send({ jsonrpc: "2.0", id, result: {} }));
    expect(output.listenerCount("drain")).toBe(1);
    output.resume();
    await Promise.all(sends);
    output.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(closed).toBe(true);
    // Once closed, replies have nowhere to go and are dropped without an error.
    await transport.send({ jsonrpc: "2.0", id: 99, result: {} });
  });
});
