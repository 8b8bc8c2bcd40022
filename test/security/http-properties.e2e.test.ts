import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { isJSONRPCMessage } from "../helpers/json-rpc.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_HEADERS, rawInitialize, rawRequest, type RawResponse } from "../helpers/http-client.js";
import { waitFor } from "../helpers/wait.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

// Whatever a client sends over HTTP, the bundled server answers with a status that says whose
// mistake it was and a JSON body that says what it was, never a stack trace, and keeps serving in
// bounded memory. The stdio side of the same proof is properties.test.ts.

const CONFIG = fileURLToPath(new URL("../fixtures/http/hostile.config.json", import.meta.url));
const SLOW_CONFIG = fileURLToPath(new URL("../fixtures/http/slow.config.json", import.meta.url));
/** The config's maxBodyBytes. */
const MAX_BODY = 16384;
const RUNS = 200;
/** Far above what the server needs (about 100 MB), far below what a leak over the runs would reach. */
const MAX_RSS_BYTES = 400 * 1024 * 1024;
const STACK = /\n\s+at |internal error|Unhandled/;

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

/** A request with a body of raw bytes and exactly the headers given (no Content-Length unless given, so chunked). */
function send(
  url: URL,
  options: { method: string; headers: Record<string, string>; body?: Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method, headers: options.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The JSON-RPC messages of an MCP answer: a JSON body, or the data lines of an event stream. */
function messagesOf(response: RawResponse): unknown[] {
  const type = String(response.headers["content-type"] ?? "");
  if (type.startsWith("text/event-stream")) {
    return response.body
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line.length > "data: ".length)
      .map((line) => JSON.parse(line.slice("data: ".length)));
  }
  const value: unknown = JSON.parse(response.body);
  return Array.isArray(value) ? value : [value];
}

/** What every answer must be, whatever was asked. */
function checkAnswer(response: RawResponse, path: string): void {
  // Nothing a client sends is the server's fault.
  expect(response.status, response.body).toBeLessThan(500);
  expect(response.body).not.toMatch(STACK);
  if (response.body === "") return;
  const type = String(response.headers["content-type"] ?? "");
  expect(type).toMatch(/^(application\/json|text\/event-stream)/);
  const messages = messagesOf(response);
  for (const message of messages) {
    const record = message as { jsonrpc?: unknown; id?: unknown; error?: { message?: unknown; code?: unknown } };
    if (path === "/mcp" || type.startsWith("text/event-stream")) {
      // A refusal of the whole HTTP request answers no request, so its id is null, as the SDK's transport does.
      const transportError =
        record.jsonrpc === "2.0" &&
        record.id === null &&
        record.error !== undefined &&
        Number.isInteger(record.error.code);
      expect(transportError || isJSONRPCMessage(message), response.body).toBe(true);
    }
    if (record.error) {
      expect(typeof record.error.message).toBe("string");
      expect(record.error.message).not.toContain("\n");
    }
  }
  if (response.status >= 400)
    expect(
      messages.every((message) => "error" in (message as object)),
      response.body,
    ).toBe(true);
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    "../../etc/passwd",
    "%2e%2e%2f",
    "a\u0000b",
    "\u202e",
    "skill://x/../../y",
    "examples:changelog-curator",
  ),
  fc.string({ minLength: 1000, maxLength: 5000 }),
);
const argument = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
);
const TOOLS = ["search_skills", "list_skills", "read_skill", "fetch_skill_files", "no_such_tool"];
const METHODS = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "prompts/list",
  "logging/setLevel",
  "notifications/initialized",
  "notifications/cancelled",
  "skills/list",
];

/** A tool call with odd, huge or hostile arguments. */
const toolCall = fc.record({
  jsonrpc: fc.constant("2.0"),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
  method: fc.constant("tools/call"),
  params: fc.record({
    name: fc.constantFrom(...TOOLS),
    arguments: fc.dictionary(
      fc.constantFrom("query", "limit", "source", "id", "skill", "paths", "cursor", "x"),
      argument,
      { maxKeys: 4 },
    ),
  }),
});

/** One JSON-RPC message a hostile client might send: valid, nearly valid, or not one at all. */
const message = fc.oneof(
  toolCall,
  fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0", 2, null),
      id: fc.oneof(
        fc.integer(),
        fc.string({ maxLength: 20 }),
        fc.constant(null),
        fc.double(),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 30 })),
      params: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(
          { name: hostileString, uri: hostileString, cursor: hostileString, protocolVersion: hostileString },
          { requiredKeys: [] },
        ),
      ),
      result: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const body = fc.oneof(
  { weight: 4, arbitrary: message.map((value) => Buffer.from(JSON.stringify(value))) },
  { weight: 1, arbitrary: fc.array(message, { maxLength: 5 }).map((batch) => Buffer.from(JSON.stringify(batch))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  // Over the limit: what the declared length says, or what a chunked body turns out to hold.
  { weight: 1, arbitrary: fc.integer({ min: MAX_BODY + 1, max: 4 * MAX_BODY }).map((size) => Buffer.alloc(size, "x")) },
);

/** Anything at all: any method, path and headers, most of them wrong. */
const anyRequest = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"),
  path: fc.constantFrom(
    "/mcp",
    "/mcp",
    "/mcp",
    "/mcp/",
    "/mcp/x",
    "/v1/skills",
    "/v1/search?q=pdf",
    "/v1/skills/..%2f..%2fetc",
    "/v1/openapi.json",
    "/nothing",
    "/",
  ),
  contentType: fc.option(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "text/plain; a=application/json",
      "application/json;",
      "multipart/form-data",
      "",
    ),
  ),
  accept: fc.option(
    fc.constantFrom(
      "application/json, text/event-stream",
      "application/json",
      "text/event-stream",
      "*/*",
      "text/html",
      "",
    ),
  ),
  session: fc.constantFrom("none", "none", "garbage", "valid"),
  protocolVersion: fc.option(fc.constantFrom("2025-06-18", "2025-03-26", "1999-01-01", "x".repeat(300), "")),
  declareLength: fc.boolean(),
  body: fc.option(body),
});

/** A well-formed MCP POST, so that what is hostile (the JSON-RPC in it) reaches the server. */
const mcpPost = fc.record({
  method: fc.constant("POST"),
  path: fc.constant("/mcp"),
  contentType: fc.constant("application/json"),
  accept: fc.constant("application/json, text/event-stream"),
  session: fc.constant("valid"),
  protocolVersion: fc.option(fc.constantFrom("2025-06-18", "2025-03-26")),
  declareLength: fc.boolean(),
  body: fc.oneof(
    toolCall.map((call) => Buffer.from(JSON.stringify(call))),
    body,
  ),
});

const hostileRequest = fc.oneof(anyRequest, mcpPost);

function describeServer(mode: "stateful" | "stateless") {
  describe(`hostile HTTP requests against the ${mode} bundle`, () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await startHttpServer(["--config", CONFIG, ...(mode === "stateless" ? ["--stateless"] : [])], {
        env: { SKILLS_KERNEL_TRUST_CONFIG: "1" },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    /** A session to name in a request: an open one, so the request gets past the session check. */
    async function openSession(): Promise<string> {
      const response = await rawInitialize(server.mcpUrl);
      return mode === "stateful" ? (response.headers["mcp-session-id"] as string) : "no-sessions-here";
    }

    it("answers each with a JSON error or a JSON-RPC answer, never a 5xx or a stack trace, and keeps serving", async () => {
      await fc.assert(
        fc.asyncProperty(hostileRequest, async (request) => {
          const headers: Record<string, string> = {};
          if (request.contentType !== null) headers["content-type"] = request.contentType;
          if (request.accept !== null) headers.accept = request.accept;
          if (request.protocolVersion !== null) headers["mcp-protocol-version"] = request.protocolVersion;
          // A GET on an open session is its event stream, which stays open: not a request that ends.
          if (request.session === "garbage") headers["mcp-session-id"] = "not-a-session\u00e9".replace("\u00e9", "e");
          if (request.session === "valid" && request.method !== "GET") headers["mcp-session-id"] = await openSession();
          const hasBody = request.body !== null && !["GET", "HEAD"].includes(request.method);
          // node:http sends a body without a length chunked only for POST, PUT and PATCH; any other
          // would be a broken HTTP message, which node's parser refuses before the server sees it.
          if (hasBody && (request.declareLength || !["POST", "PUT", "PATCH"].includes(request.method)))
            headers["content-length"] = String(request.body!.length);
          const response = await send(new URL(request.path, server.origin), {
            method: request.method,
            headers,
            body: hasBody ? request.body! : undefined,
          });
          checkAnswer(response, new URL(request.path, server.origin).pathname);
          if (
            hasBody &&
            request.body!.length > MAX_BODY &&
            request.path.startsWith("/mcp") &&
            request.method === "POST" &&
            response.status !== 404
          ) {
            // Over the limit is refused for its size whatever else is wrong, unless it was refused
            // before its body was read (Accept, Content-Type, session), which the status says.
            expect([406, 413, 415, 400]).toContain(response.status);
          }
          const alive = await rawRequest(new URL("/healthz", server.origin));
          expect(alive.status).toBe(200);
        }),
        { numRuns: RUNS },
      );
      expect(rssOf(server.child.pid!)).toBeLessThan(MAX_RSS_BYTES);
      expect(server.stderr()).not.toMatch(STACK);
    });

    it("says exactly what is wrong with each kind of bad request", async () => {
      const post = (body: string, headers: Record<string, string> = {}) =>
        rawRequest(server.mcpUrl, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body });
      const session: Record<string, string> = mode === "stateful" ? { "mcp-session-id": await openSession() } : {};
      const errorOf = (response: RawResponse) =>
        (JSON.parse(response.body) as { error: { code: number; message: string } }).error;

      const malformed = await post('{"jsonrpc": "2.0", "id": 1, "method": ', session);
      expect([malformed.status, errorOf(malformed).code]).toEqual([400, -32700]);

      const notJsonRpc = await post(JSON.stringify({ hello: "world" }), session);
      expect([notJsonRpc.status, errorOf(notJsonRpc).code]).toEqual([400, -32600]);

      const badId = await post(JSON.stringify({ jsonrpc: "2.0", id: 0.5, method: "ping" }), session);
      expect([badId.status, JSON.parse(badId.body)]).toEqual([
        400,
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid Request: an id is a string or an integer" },
        },
      ]);

      const wrongType = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), {
        ...session,
        "content-type": "text/plain",
      });
      expect([wrongType.status, errorOf(wrongType).message]).toEqual([
        415,
        "Unsupported Media Type: Content-Type must be application/json",
      ]);

      const wrongAccept = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), {
        ...session,
        accept: "text/html",
      });
      expect(wrongAccept.status).toBe(406);

      const oversize = await post(
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(MAX_BODY) } }),
        session,
      );
      expect(oversize.status).toBe(413);
      const chunked = await send(server.mcpUrl, {
        method: "POST",
        headers: { ...MCP_HEADERS, ...session },
        body: Buffer.alloc(3 * MAX_BODY, " "),
      });
      expect(chunked.status).toBe(413);
      expect(errorOf(chunked).message).toMatch(/16384 bytes/);

      const batch = JSON.stringify(Array.from({ length: 101 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" })));
      const tooMany = await post(batch, session);
      expect([tooMany.status, errorOf(tooMany).code]).toEqual([400, -32600]);

      const badVersion = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), {
        ...session,
        "mcp-protocol-version": "1999-01-01",
      });
      expect(badVersion.status).toBe(400);
      expect(errorOf(badVersion).message).toMatch(/Unsupported protocol version: 1999-01-01/);

      const unknown = await post(JSON.stringify({ jsonrpc: "2.0", id: "u", method: "no/such/method" }), session);
      expect(unknown.status).toBe(200);
      expect(messagesOf(unknown)).toEqual([
        { jsonrpc: "2.0", id: "u", error: { code: -32601, message: "Method not found" } },
      ]);

      // A huge argument, just under the limit, gets the tool's own answer.
      const query = "pdf ".repeat((MAX_BODY - 200) / 4);
      const huge = await post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "search_skills", arguments: { query } },
        }),
        session,
      );
      expect(huge.status).toBe(200);
      const [answer] = messagesOf(huge) as {
        id: number;
        result: { isError?: boolean; structuredContent?: { query: string } };
      }[];
      expect(answer!.id).toBe(7);
      expect(answer!.result.isError).toBeFalsy();
      expect(answer!.result.structuredContent!.query.length).toBeLessThan(200);

      if (mode === "stateful") {
        const unknownSession = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), {
          "mcp-session-id": "no-such-session",
        });
        expect([unknownSession.status, errorOf(unknownSession).message]).toEqual([404, "Session not found"]);
        const noSession = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
        expect(noSession.status).toBe(400);
      } else {
        const get = await rawRequest(server.mcpUrl, { headers: { accept: "text/event-stream" } });
        expect(get.status).toBe(405);
        // Two clients with the same request id each get their own answer.
        const [a, b] = await Promise.all(
          ["pdf", "commit"].map((query) =>
            post(
              JSON.stringify({
                jsonrpc: "2.0",
                id: 1,
                method: "tools/call",
                params: { name: "search_skills", arguments: { query } },
              }),
            ),
          ),
        );
        expect(
          (messagesOf(a!)[0] as { result: { structuredContent: { query: string } } }).result.structuredContent.query,
        ).toBe("pdf");
        expect(
          (messagesOf(b!)[0] as { result: { structuredContent: { query: string } } }).result.structuredContent.query,
        ).toBe("commit");
      }
      expect(server.stderr()).not.toMatch(STACK);
    });
  });
}

describeServer("stateless");
describeServer("stateful");

describe("cancellations on the stateless bundle", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(["--config", SLOW_CONFIG, "--stateless"], {
      env: { SKILLS_KERNEL_TRUST_CONFIG: "1" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("never reach another client's request, whatever id they name", async () => {
    const call = (id: number) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow_tool", arguments: {} } });
    const slow = rawRequest(server.mcpUrl, { method: "POST", headers: MCP_HEADERS, body: call(1) });
    // Ids a request could be travelling under, the client's own among them (a batch holds 20 at most).
    const cancels = Array.from({ length: 20 }, (_, requestId) => ({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId, reason: "hostile" },
    }));
    await waitFor("the call to reach the tool", () => server.stderr().includes("slow_tool: working"));
    const cancel = await rawRequest(server.mcpUrl, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify(cancels),
    });
    expect(cancel.status).toBe(202);
    // A cancelled request is never answered: the slow call's answer proves nothing reached it.
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(messagesOf(answer)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } },
    ]);
  });
});
