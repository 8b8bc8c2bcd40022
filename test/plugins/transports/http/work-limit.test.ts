import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogger } from "../../../../src/kernel/logger.js";
import { createHttpApp, type HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { httpOptionsSchema, type HttpOptions } from "../../../../src/plugins/transports/http/options.js";

// Issue 34, item 5: what one client's requests may make the server work on at once, and a batch
// whose answers pass maxAnswerBytes stops being worked on. A real SDK server behind the real app,
// with a tool that counts its calls and answers when the test lets it.

/** A tool whose calls are counted and held until `release()`; each answers `size` characters. */
function heldTool(size: number) {
  let calls = 0;
  let waiting: (() => void)[] = [];
  const build = () => {
    const server = new McpServer({ name: "work", version: "0" });
    server.registerTool("work", { inputSchema: z.object({}) }, async () => {
      calls++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { content: [{ type: "text", text: "x".repeat(size) }] };
    });
    return server;
  };
  return {
    build,
    get calls() {
      return calls;
    },
    release() {
      const now = waiting;
      waiting = [];
      for (const resolve of now) resolve();
    },
  };
}

const apps: HttpApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close(100);
});

function appOver(build: () => McpServer, options: Partial<HttpOptions>): HttpApp {
  // These tests count places, on the real clock: the share of time a busy client gets while
  // another is served (work-share.test.ts) would hold its next requests back for as long as the
  // test took to release the last ones, so it is off here.
  const parsed = httpOptionsSchema.parse({ stateless: true, maxWorkShare: 1, ...options });
  const app = createHttpApp({
    buildServer: build,
    edition: () => "one",
    personal: false,
    // These apps serve MCP only: no route asks for a caller's catalog.
    catalogFor: () => {
      throw new Error("no catalog in this test");
    },
    logger: createLogger("error"),
    options: { ...parsed, allowedHosts: undefined },
  });
  apps.push(app);
  return app;
}

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "work", arguments: {} } });

function post(app: HttpApp, client: string, body: unknown, connection?: string): Promise<Response> {
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify(body),
  });
  return app.fetch(request, client, connection);
}

/** Let whatever is ready run: answers in flight move on by a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("work bounds over HTTP", () => {
  it("stops working on a batch once its answers have spent maxAnswerBytes", async () => {
    const tool = heldTool(4000);
    const app = appOver(tool.build, { maxAnswerBytes: 6000 });
    const answer = post(app, "10.0.0.1", [1, 2, 3, 4, 5].map(call));
    // One request of the batch at a time: the second starts only once the first is answered.
    await settle();
    expect(tool.calls).toBe(1);
    tool.release();
    await settle();
    expect(tool.calls).toBe(2);
    tool.release();
    const messages = (await (await answer).json()) as { id: number; result?: unknown; error?: { message: string } }[];
    // The second answer went past the budget: the last three were never worked on.
    expect(tool.calls).toBe(2);
    expect(messages.map((message) => message.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(messages.filter((message) => "result" in message).map((message) => message.id)).toEqual([1]);
    for (const message of messages.filter((m) => m.id !== 1)) {
      expect(message.error?.message).toBe(
        "the answers to this HTTP request would be over 6000 bytes; ask for less in one request (fewer messages in a batch)",
      );
    }
  });

  it("works on a client's requests a few at a time, queues the next ones and refuses past its queue with 429", async () => {
    const tool = heldTool(10);
    const app = appOver(tool.build, { maxWorkPerClient: 2, maxWorkQueuedPerClient: 3, maxWorkInFlight: 10 });
    const greedy = [1, 2, 3, 4, 5].map((id) => post(app, "10.0.0.1", call(id)));
    await settle();
    // Two being worked on, three waiting their turn.
    expect(tool.calls).toBe(2);
    const refused = await post(app, "10.0.0.1", call(6));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message:
          "Too many requests from this client at once (2 being answered, 3 waiting); wait for answers before sending more",
      },
    });
    // Another client is not in that line: its request is worked on at once.
    const other = post(app, "10.0.0.2", call(7));
    await settle();
    expect(tool.calls).toBe(3);
    // A notification never waits (a cancellation must reach the work it cancels).
    const notification = await post(app, "10.0.0.1", { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notification.status).toBe(202);
    for (let round = 0; round < 3 && tool.calls < 6; round++) {
      tool.release();
      await settle();
    }
    expect(tool.calls).toBe(6);
    tool.release();
    for (const response of await Promise.all([...greedy, other])) expect(response.status).toBe(200);
  });

  it("works on no more than maxWorkInFlight requests at once over every client", async () => {
    const tool = heldTool(10);
    const app = appOver(tool.build, { maxWorkPerClient: 2, maxWorkInFlight: 3 });
    const answers = ["10.0.0.1", "10.0.0.2", "10.0.0.3"].flatMap((client, index) => [
      post(app, client, call(index * 2)),
      post(app, client, call(index * 2 + 1)),
    ]);
    await settle();
    expect(tool.calls).toBe(3);
    tool.release();
    await settle();
    expect(tool.calls).toBe(6);
    tool.release();
    for (const response of await Promise.all(answers)) expect(response.status).toBe(200);
  });

  it("answers a user at once beside another whose requests fill their shared address's line (issue 47, item 5)", async () => {
    const tool = heldTool(10);
    const app = appOver(tool.build, { maxWorkPerClient: 2, maxWorkQueuedPerClient: 20, maxWorkInFlight: 32 });
    // Behind one address (a NAT): twenty requests on one connection, then one on another.
    const greedy = Array.from({ length: 20 }, (_, id) => post(app, "10.0.0.1", call(id), "40001"));
    await settle();
    expect(tool.calls).toBe(2);
    const good = post(app, "10.0.0.1", call(99), "40002");
    await settle();
    expect(tool.calls).toBe(3);
    // X-Forwarded-For names no other client: the header is anyone's to write.
    const forwarded = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "x-forwarded-for": "203.0.113.9",
      },
      body: JSON.stringify(call(100)),
    });
    const spoofed = app.fetch(forwarded, "10.0.0.1", "40001");
    await settle();
    expect(tool.calls).toBe(3);
    for (let round = 0; round < 30 && tool.calls < 22; round++) {
      tool.release();
      await settle();
    }
    tool.release();
    for (const response of await Promise.all([...greedy, good, spoofed])) expect(response.status).toBe(200);
  });
});
