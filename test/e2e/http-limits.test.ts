import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { INITIALIZE, MCP_HEADERS, postFrom, rawRequest, type RawResponse } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

// What one HTTP client can make the server hold: a body that never ends, sessions it never uses,
// a batch that multiplies the work and the answer (issue 24, items 4, 7 and 11). The config sets
// bodyTimeoutMs 1000, maxSessions 4, maxSessionsPerClient 2, maxBatchSize 5, maxAnswerBytes 6000.
const CONFIG = fileURLToPath(new URL("../fixtures/http/guards.config.json", import.meta.url));
const MODERN = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };

/**
 * A POST whose body, declared at 200 bytes, comes a byte every 300 ms: the answer, or "closed"
 * when the server drops the connection instead. The drip would take a minute; stopped when answered.
 */
function dripping(url: URL): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { ...MCP_HEADERS, "content-length": "200" }, agent: false },
      (res) => {
        res.resume();
        clearInterval(timer);
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", () => {
      clearInterval(timer);
      resolve("closed");
    });
    const timer = setInterval(() => req.write("x"), 300);
  });
}

/** A request that opens a body and never finishes it: what an attacker leaves hanging. */
function unfinished(url: URL): { abort(): void } {
  const req = httpRequest(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, "content-length": String(INITIALIZE.length) },
    agent: false,
  });
  req.on("error", () => undefined);
  req.write(INITIALIZE.slice(0, 20));
  return { abort: () => req.destroy() };
}

/** The JSON-RPC messages of an answer: a JSON body, or the data lines of an event stream. */
function messagesOf(response: RawResponse): Record<string, any>[] {
  if (String(response.headers["content-type"]).startsWith("text/event-stream")) {
    return response.body
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)));
  }
  const value = JSON.parse(response.body);
  return Array.isArray(value) ? value : [value];
}

describe.each(Object.keys(RUNTIMES) as Runtime[])("HTTP limits on %s", (runtime) => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(["--config", CONFIG], { runtime });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("cuts a body that drips in slower than bodyTimeoutMs", { timeout: 30_000 }, async () => {
    const outcome = await dripping(server.mcpUrl);
    expect([408, "closed"]).toContain(outcome);
    // And keeps serving.
    expect((await rawRequest(new URL("/healthz", server.origin))).status).toBe(200);
  });

  it("counts sessions per client: a third from one address is refused, another address still gets one; unfinished bodies count for nothing", async () => {
    const hanging = [
      unfinished(server.mcpUrl),
      unfinished(server.mcpUrl),
      unfinished(server.mcpUrl),
      unfinished(server.mcpUrl),
    ];
    try {
      // Four bodies never finished: with maxSessions 4 a real client must still get in.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const first = await postFrom(server.mcpUrl, "127.0.0.1", INITIALIZE);
      const second = await postFrom(server.mcpUrl, "127.0.0.1", INITIALIZE);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await postFrom(server.mcpUrl, "127.0.0.1", INITIALIZE);
      expect(third.status).toBe(503);
      expect(JSON.parse(third.body).error.message).toBe(
        "Too many sessions (the limit per client (2)); try again later",
      );
      const other = await postFrom(server.mcpUrl, "127.0.0.2", INITIALIZE);
      expect(other.status).toBe(200);
      // Ending sessions gives their places back.
      for (const response of [first, second, other]) {
        const id = response.headers["mcp-session-id"] as string;
        await rawRequest(server.mcpUrl, { method: "DELETE", headers: { ...MCP_HEADERS, "mcp-session-id": id } });
      }
      expect((await postFrom(server.mcpUrl, "127.0.0.1", INITIALIZE)).status).toBe(200);
    } finally {
      for (const request of hanging) request.abort();
    }
  });
});

describe("a full session table (bundle on Node)", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(["--config", CONFIG]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("makes room for a new client by closing the session idle longest, instead of refusing it until they time out", async () => {
    const opened: string[] = [];
    for (const address of ["127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"]) {
      const response = await postFrom(server.mcpUrl, address, INITIALIZE);
      expect(response.status).toBe(200);
      opened.push(response.headers["mcp-session-id"] as string);
    }
    const newcomer = await postFrom(server.mcpUrl, "127.0.0.4", INITIALIZE);
    expect(newcomer.status).toBe(200);
    const ping = (id: string) =>
      rawRequest(server.mcpUrl, {
        method: "POST",
        headers: { ...MCP_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
    expect((await ping(opened[0]!)).status).toBe(404);
    for (const id of [...opened.slice(1), newcomer.headers["mcp-session-id"] as string])
      expect((await ping(id)).status).toBe(200);
  });
});

describe("HTTP batches and answers (bundle on Node)", () => {
  let server: HttpServerProcess;
  let session: Record<string, string>;
  beforeAll(async () => {
    server = await startHttpServer(["--config", CONFIG]);
    const opened = await rawRequest(server.mcpUrl, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE });
    session = {
      ...MCP_HEADERS,
      "mcp-session-id": opened.headers["mcp-session-id"] as string,
      "mcp-protocol-version": "2025-11-25",
    };
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (body: unknown, headers = session) =>
    rawRequest(server.mcpUrl, { method: "POST", headers, body: JSON.stringify(body) });
  const readSkill = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "read_skill", arguments: { skill_name: "commit-message-writer" } },
  });

  it("answers an empty batch and one over maxBatchSize with Invalid Request, not 202 or work", async () => {
    for (const [body, message] of [
      [[], "Invalid Request: an empty batch"],
      [
        [1, 2, 3, 4, 5, 6].map((id) => ({ jsonrpc: "2.0", id, method: "ping" })),
        "Invalid Request: a batch may hold at most 5 messages",
      ],
    ] as const) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message } });
    }
  });

  it("keeps the answers to one batch within maxAnswerBytes: those past it become errors, never a 5xx", async () => {
    const response = await post([1, 2, 3, 4, 5].map(readSkill));
    expect(response.status).toBe(200);
    const answers = messagesOf(response);
    expect(answers).toHaveLength(5);
    const served = answers.filter((answer) => "result" in answer);
    const refused = answers.filter((answer) => "error" in answer);
    expect(served.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.error).toEqual({
        code: -32600,
        message:
          "the answers to this HTTP request would be over 6000 bytes; ask for less in one request (fewer messages in a batch)",
      });
    }
    expect(served.reduce((total, answer) => total + JSON.stringify(answer).length, 0)).toBeLessThanOrEqual(6000);
    // One request alone still gets its whole answer.
    expect(messagesOf(await post(readSkill(9)))[0]).toHaveProperty("result");
  });

  it("answers bad params -32602 on one line, in a session, stateless and at 2026-07-28", async () => {
    const setLevel = { jsonrpc: "2.0", id: 7, method: "logging/setLevel", params: { level: "loud" } };
    const read = { jsonrpc: "2.0", id: 8, method: "resources/read", params: { uri: 5 } };
    const inSession = [messagesOf(await post(setLevel))[0], messagesOf(await post(read))[0]];
    expect(inSession[0]).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: expect.stringMatching(/^Invalid params for logging\/setLevel: params\.level: /) },
    });
    expect(inSession[1]).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: {
        code: -32602,
        message: "Invalid params for resources/read: params.uri: Invalid input: expected string, received number",
      },
    });
    const modern = await post(
      { ...read, params: { uri: 5, _meta: META } },
      { ...MCP_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "resources/read", "mcp-name": "5" },
    );
    expect(JSON.parse(modern.body)).toEqual(inSession[1]);
    for (const answer of [...inSession, JSON.parse(modern.body)]) expect(answer.error.message).not.toContain("\n");
  });

  it("refuses a 2026-07-28 request whose Mcp-Name header disagrees with its body", async () => {
    const call = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "read_skill", arguments: { skill_name: "readme-reviewer" }, _meta: META },
    };
    const headers = { ...MCP_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call" };
    const mismatched = await post(call, { ...headers, "mcp-name": "list_skills" });
    expect(mismatched.status).toBe(400);
    expect(JSON.parse(mismatched.body).error.code).toBe(-32020);
    const matching = await post(call, { ...headers, "mcp-name": "read_skill" });
    expect(matching.status).toBe(200);
    expect(JSON.parse(matching.body).result.structuredContent).toMatchObject({ id: "readme-reviewer" });
  });
});
