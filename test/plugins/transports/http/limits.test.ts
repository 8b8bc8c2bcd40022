import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import type { HttpApp } from "../../../../src/plugins/transports/http/app.js";
import type { HttpRoute } from "../../../../src/plugins/transports/http/routes.js";
import { manualClock } from "../../../helpers/clock.js";
import { appOf, bootExamples, get, INITIALIZE, MCP_HEADERS, post } from "./in-process.js";

/** The status and JSON-RPC error message of a refusal. */
async function refusal(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { error: { message: string } };
  return [response.status, body.error.message];
}

/** A body that sends `first` and then nothing, neither more bytes nor its end. */
function stalled(first: string): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(first)) });
}

/** A route whose requests are answered only when the test says so. */
function heldRoute() {
  const waiting: (() => void)[] = [];
  const route: HttpRoute = {
    prefix: "/held",
    handle: () => new Promise<Response>((resolve) => waiting.push(() => resolve(new Response("done")))),
  };
  return { route, waiting, releaseAll: () => waiting.splice(0).forEach((release) => release()) };
}

describe("request limits, in process", () => {
  let kernel: SkillsKernel;
  let app: HttpApp | undefined;
  beforeAll(async () => {
    kernel = await bootExamples();
  });
  afterEach(async () => {
    await app?.close(100);
    app = undefined;
  });
  afterAll(async () => {
    await kernel?.close();
  });

  it("refuses a body declared over maxBodyBytes before reading it, and one that turns out larger", async () => {
    app = appOf(kernel, { maxBodyBytes: 1_000 });
    const declared = await app.fetch(
      new Request("http://127.0.0.1:3000/mcp", {
        method: "POST",
        headers: { ...MCP_HEADERS, "content-length": "5000" },
        body: stalled("{") as never,
        duplex: "half",
      } as RequestInit),
    );
    expect(await refusal(declared)).toEqual([413, "request body over 1000 bytes"]);
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`[${" ".repeat(1_500)}]`));
        controller.close();
      },
    });
    const larger = await app.fetch(
      new Request("http://127.0.0.1:3000/mcp", {
        method: "POST",
        headers: MCP_HEADERS,
        body: streamed,
        duplex: "half",
      } as RequestInit),
    );
    expect(await refusal(larger)).toEqual([413, "Payload Too Large: the request body is over 1000 bytes"]);
  });

  it("cuts a body that has not arrived within bodyTimeoutMs with 408", async () => {
    const time = manualClock();
    app = appOf(kernel, { clock: time.clock, bodyTimeoutMs: 5_000 });
    const answer = app.fetch(
      new Request("http://127.0.0.1:3000/mcp", {
        method: "POST",
        headers: MCP_HEADERS,
        body: stalled("{"),
        duplex: "half",
      } as RequestInit),
    );
    await time.tickAsync(5_000);
    expect(await refusal(await answer)).toEqual([
      408,
      "Request Timeout: the request body did not arrive within 5000 ms",
    ]);
  });

  it("refuses what is not one JSON-RPC message or a batch within maxBatchSize", async () => {
    app = appOf(kernel, { maxBatchSize: 2 });
    const message = (id: unknown) => ({ jsonrpc: "2.0", id, method: "ping" });
    expect(await refusal(await post(app, "/mcp", INITIALIZE, { "content-type": "text/plain" }))).toEqual([
      415,
      "Unsupported Media Type: Content-Type must be application/json",
    ]);
    expect(await refusal(await post(app, "/mcp", "{not json"))).toEqual([
      400,
      "Parse error: the request body is not JSON",
    ]);
    expect(await refusal(await post(app, "/mcp", []))).toEqual([400, "Invalid Request: an empty batch"]);
    expect(await refusal(await post(app, "/mcp", [message(1), message(2), message(3)]))).toEqual([
      400,
      "Invalid Request: a batch may hold at most 2 messages",
    ]);
    expect(await refusal(await post(app, "/mcp", message({ an: "object" })))).toEqual([
      400,
      "Invalid Request: an id is a string or an integer",
    ]);
    expect(await refusal(await post(app, "/mcp", message(1.5)))).toEqual([
      400,
      "Invalid Request: an id is a string or an integer",
    ]);
  });

  it("answers a client past its places and its line 429, while another client still gets in", async () => {
    const held = heldRoute();
    app = appOf(kernel, { routes: [held.route], maxWorkPerClient: 1, maxWorkQueuedPerClient: 1 });
    const running = get(app, "/held", {}, "10.0.0.1");
    const queued = get(app, "/held", {}, "10.0.0.1");
    const refused = await get(app, "/held", {}, "10.0.0.1");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      error: {
        message:
          "Too many requests from this client at once (1 being answered, 1 waiting); wait for answers before sending more",
      },
    });
    const other = get(app, "/held", {}, "10.0.0.2");
    while (held.waiting.length < 2) await new Promise((resolve) => setImmediate(resolve));
    held.releaseAll();
    expect((await other).status).toBe(200);
    expect((await running).status).toBe(200);
    while (held.waiting.length < 1) await new Promise((resolve) => setImmediate(resolve));
    held.releaseAll();
    expect(await (await queued).text()).toBe("done");
  });
});
