import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import type { HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { manualClock } from "../../../helpers/clock.js";
import { answerOf, appOf, bootExamples, get, INITIALIZE, post } from "./in-process.js";

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const IDLE_MS = 60_000;

/** Opens a 2025-11-25 session from `client` and returns its id. */
async function open(app: HttpApp, client = "10.0.0.1"): Promise<string> {
  const response = await post(app, "/mcp", INITIALIZE, {}, client);
  expect(response.status, await response.clone().text()).toBe(200);
  await response.body?.cancel();
  return response.headers.get("mcp-session-id")!;
}

/** tools/list in session `id`: the status, and the tool names when it was answered. */
async function toolsIn(app: HttpApp, id: string, client = "10.0.0.1") {
  const response = await post(
    app,
    "/mcp",
    listTools,
    { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    client,
  );
  if (response.status !== 200) return { status: response.status, body: await response.json() };
  const answer = await answerOf(response);
  return { status: 200, tools: (answer.result.tools as { name: string }[]).map((tool) => tool.name) };
}

describe("2025-11-25 sessions, in process", () => {
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

  it("opens a session on initialize and answers in it by its id", async () => {
    app = appOf(kernel);
    const id = await open(app);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await toolsIn(app, id)).toMatchObject({
      status: 200,
      tools: expect.arrayContaining(["list_skills", "read_skill"]),
    });
  });

  it("puts the replica's id at the front of each session id", async () => {
    app = appOf(kernel, { replicaId: "r7" });
    expect(await open(app)).toMatch(/^r7\.[0-9a-f-]{36}$/);
  });

  it("refuses a request without a session id, or with one it does not hold", async () => {
    app = appOf(kernel);
    const without = await get(app, "/mcp", { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" });
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({
      error: { message: "Bad Request: Mcp-Session-Id header is required" },
    });
    expect(await toolsIn(app, "no-such-session")).toMatchObject({
      status: 404,
      body: { error: { code: -32001, message: "Session not found" } },
    });
  });

  it("closes a session idle for sessionIdleMs, and only then", async () => {
    const time = manualClock();
    app = appOf(kernel, { clock: time.clock, sessionIdleMs: IDLE_MS });
    const id = await open(app);
    await time.tickAsync(IDLE_MS / 2);
    expect((await toolsIn(app, id)).status).toBe(200);
    // The request just answered counts as activity: half the idle time later it is still open.
    await time.tickAsync(IDLE_MS / 2);
    expect((await toolsIn(app, id)).status).toBe(200);
    await time.tickAsync(IDLE_MS * 2);
    expect(await toolsIn(app, id)).toMatchObject({ status: 404, body: { error: { message: "Session not found" } } });
  });

  it("keeps a session whose client holds its GET stream open, however long, and closes it once the stream ends", async () => {
    const time = manualClock();
    app = appOf(kernel, { clock: time.clock, sessionIdleMs: IDLE_MS });
    const id = await open(app);
    const stream = await get(app, "/mcp", {
      accept: "text/event-stream",
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    await time.tickAsync(IDLE_MS * 3);
    expect((await toolsIn(app, id)).status).toBe(200);
    await stream.body!.cancel();
    await time.tickAsync(IDLE_MS * 2);
    expect((await toolsIn(app, id)).status).toBe(404);
  });

  it("closes a session on DELETE, freeing its place", async () => {
    app = appOf(kernel, { maxSessions: 1 });
    const id = await open(app);
    const deleted = await app.fetch(
      new Request("http://127.0.0.1:3000/mcp", {
        method: "DELETE",
        headers: { host: "127.0.0.1:3000", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      }),
    );
    expect(deleted.status).toBe(200);
    expect((await toolsIn(app, id)).status).toBe(404);
    expect(await open(app, "10.0.0.2")).toBeTruthy();
  });

  it("refuses a client over its share with 503 and Retry-After, whatever is idle", async () => {
    app = appOf(kernel, { maxSessions: 10, maxSessionsPerClient: 2 });
    await open(app);
    await open(app);
    const third = await post(app, "/mcp", INITIALIZE, {}, "10.0.0.1");
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("5");
    expect(await third.json()).toMatchObject({
      error: { message: "Too many sessions (the limit per client (2)); try again later" },
    });
    expect(await open(app, "10.0.0.2")).toBeTruthy();
  });

  it("reclaims the session idle longest when the table is full, so a new client gets in", async () => {
    const time = manualClock();
    app = appOf(kernel, { clock: time.clock, maxSessions: 2, sessionIdleMs: IDLE_MS });
    const oldest = await open(app, "10.0.0.1");
    await time.tickAsync(1_000);
    const newer = await open(app, "10.0.0.2");
    await time.tickAsync(1_000);
    await open(app, "10.0.0.3");
    expect((await toolsIn(app, oldest, "10.0.0.1")).status).toBe(404);
    expect((await toolsIn(app, newer, "10.0.0.2")).status).toBe(200);
  });

  it("refuses sessions, new and open, once it is closing, and says so on /healthz", async () => {
    app = appOf(kernel);
    const id = await open(app);
    await app.close(100);
    const refused = await post(app, "/mcp", INITIALIZE);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { message: "the server is shutting down" } });
    expect((await toolsIn(app, id)).status).toBe(503);
    expect(await (await get(app, "/healthz")).json()).toEqual({ status: "stopping" });
  });
});
