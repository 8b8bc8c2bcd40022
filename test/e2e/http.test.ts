import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";
import { connectHttp, MCP_HEADERS, rawInitialize, rawRequest, resultText } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";
import { waitFor } from "../helpers/wait.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/http/", import.meta.url));
const TOKEN = "e2e-token-0123456789abcdef";
const PING = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request written as bytes on a socket of its own (fetch only sends origin-form targets): its status line and body. */
function rawLine(origin: string, requestLine: string, host = new URL(origin).host) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const socket = new Socket();
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      if (status === undefined) return reject(new Error(`no status line in ${JSON.stringify(answer.slice(0, 200))}`));
      resolve({ status: Number(status), body: answer.slice(answer.indexOf("\r\n\r\n") + 4) });
    });
    socket.connect(Number(port), hostname, () =>
      socket.write(`${requestLine}\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`),
    );
  });
}

// The same walk on every runtime: the bundle serves HTTP with node:http, Bun.serve or Deno.serve.
describe.each(Object.keys(RUNTIMES) as Runtime[])("HTTP server on %s", (runtime) => {
  describe("2026-07-28 (the v2 client pinned to it): no session, any request stands alone", () => {
    let skills: string;
    let server: HttpServerProcess;
    beforeAll(async () => {
      skills = mkdtempSync(join(tmpdir(), "sk-http-"));
      cpSync(EXAMPLES, skills, { recursive: true });
      server = await startHttpServer(["--skills-dir", skills], { runtime });
    });
    afterAll(async () => {
      await server?.stop();
      rmSync(skills, { recursive: true, force: true });
    });

    it("serves tools, resources and the Skills extension with no session", async () => {
      const { client, transport } = await connectHttp(server.mcpUrl, { revision: "2026-07-28" });
      expect(transport.sessionId).toBeUndefined();
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search_skills");
      const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes" } });
      expect(found.structuredContent).toMatchObject({ results: [{ id: "changelog-curator" }] });
      const { resources } = await client.listResources();
      const readme = resources.find((r) => r.name === "readme-reviewer")!;
      const read = await client.readResource({ uri: readme.uri });
      expect(JSON.stringify(read.contents)).toContain("name: readme-reviewer");
      const listing = await new SkillsClient(client).list();
      expect(listing.skills.map((skill) => skill.frontmatter.name).sort()).toEqual([
        "changelog-curator",
        "commit-message-writer",
        "readme-reviewer",
      ]);
      await client.close();
    });

    it("announces list_changed through subscriptions/listen when a skill is added", async () => {
      const { client } = await connectHttp(server.mcpUrl, { revision: "2026-07-28" });
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/resources/list_changed", () => resolve()),
      );
      const subscription = await client.listen({ resourcesListChanged: true });
      expect(subscription.honoredFilter).toMatchObject({ resourcesListChanged: true });
      mkdirSync(join(skills, "added-modern"));
      writeFileSync(
        join(skills, "added-modern", "SKILL.md"),
        "---\nname: added-modern\ndescription: Added while listening.\n---\n\nBody.\n",
      );
      await changed;
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.name)).toContain("added-modern");
      await subscription.close();
      await client.close();
    });
  });

  describe("2025-11-25 sessions (the default for clients that speak it)", () => {
    let skills: string;
    let server: HttpServerProcess;
    beforeAll(async () => {
      skills = mkdtempSync(join(tmpdir(), "sk-http-"));
      cpSync(EXAMPLES, skills, { recursive: true });
      server = await startHttpServer(["--skills-dir", skills], { runtime });
    });
    afterAll(async () => {
      await server?.stop();
      rmSync(skills, { recursive: true, force: true });
    });

    it("gives a session id and answers tools through it", async () => {
      const { client, transport } = await connectHttp(server.mcpUrl);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search_skills");
      const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes" } });
      expect(found.structuredContent).toMatchObject({ results: [{ id: "changelog-curator" }] });
      await client.close();
    });

    it("announces list_changed over the GET stream when a skill is added", async () => {
      const { client } = await connectHttp(server.mcpUrl);
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/resources/list_changed", () => resolve()),
      );
      // The notification has no request to ride on: it can only come over the session's GET stream.
      await sleep(300);
      mkdirSync(join(skills, "added-skill"));
      writeFileSync(
        join(skills, "added-skill", "SKILL.md"),
        "---\nname: added-skill\ndescription: Added while serving.\n---\n\nBody.\n",
      );
      await changed;
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.name)).toContain("added-skill");
      await client.close();
    });

    it("ends a session on DELETE; its id is unknown afterwards", async () => {
      const { client, transport } = await connectHttp(server.mcpUrl);
      const id = transport.sessionId!;
      await transport.terminateSession();
      await client.close();
      const after = await rawRequest(server.mcpUrl, {
        method: "POST",
        headers: { ...MCP_HEADERS, "mcp-session-id": id },
        body: PING,
      });
      expect(after.status).toBe(404);
    });

    it("answers /healthz and /readyz in JSON", async () => {
      const health = await fetch(new URL("/healthz", server.origin));
      expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
      const ready = await fetch(new URL("/readyz", server.origin));
      expect([ready.status, await ready.json()]).toEqual([
        200,
        { status: "ready", checks: { catalog: "loaded", cache: "connected" } },
      ]);
    });

    it("refuses a Host or Origin that is not a loopback name (DNS rebinding) with 403 and no session", async () => {
      const badHost = await rawInitialize(server.mcpUrl, { host: `evil.example.com:${server.port}` });
      expect(badHost.status).toBe(403);
      expect(badHost.headers["mcp-session-id"]).toBeUndefined();
      const badOrigin = await rawInitialize(server.mcpUrl, { origin: "http://evil.example.com" });
      expect(badOrigin.status).toBe(403);
      expect(JSON.parse(badOrigin.body)).toMatchObject({ error: { message: "Invalid Origin: evil.example.com" } });
      const good = await rawInitialize(server.mcpUrl, {
        host: `localhost:${server.port}`,
        origin: `http://localhost:${server.port}`,
      });
      expect(good.status).toBe(200);
    });

    it("refuses a loopback name on another port in Host or Origin: the page of another local server", async () => {
      const otherPort = server.port === 5173 ? 5174 : 5173;
      const badHost = await rawInitialize(server.mcpUrl, { host: `localhost:${otherPort}` });
      expect(badHost.status).toBe(403);
      expect(JSON.parse(badHost.body)).toMatchObject({
        error: { message: expect.stringContaining(`does not name this server's port ${server.port}`) },
      });
      const badOrigin = await rawInitialize(server.mcpUrl, { origin: `http://localhost:${otherPort}` });
      expect(badOrigin.status).toBe(403);
      expect(badOrigin.headers["mcp-session-id"]).toBeUndefined();
      expect(JSON.parse(badOrigin.body)).toMatchObject({
        error: {
          message: `Invalid Origin: http://localhost:${otherPort} is not this server's own origin (allowedOrigins lists the pages that may call it)`,
        },
      });
    });
  });

  describe("stateless (--stateless)", () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await startHttpServer(["--skills-dir", EXAMPLES, "--stateless"], { runtime });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("answers every request on its own, with no session", async () => {
      const { client, transport } = await connectHttp(server.mcpUrl);
      expect(transport.sessionId).toBeUndefined();
      for (const query of ["release notes", "commit message"]) {
        const found = await client.callTool({ name: "search_skills", arguments: { query } });
        expect(found.isError).toBeFalsy();
      }
      expect(resultText(await client.callTool({ name: "list_skills", arguments: {} }))).toContain("readme-reviewer");
      await client.close();
    });

    it("has no stream to GET", async () => {
      const get = await rawRequest(server.mcpUrl, { headers: { accept: "text/event-stream" } });
      expect(get.status).toBe(405);
      expect(get.headers.allow).toBe("POST");
    });
  });

  describe("bearer-token auth (SKILLS_KERNEL_AUTH_TOKEN)", () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await startHttpServer(["--skills-dir", EXAMPLES, "--log-level", "debug"], {
        runtime,
        env: { SKILLS_KERNEL_AUTH_TOKEN: TOKEN },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("refuses a request without a token: 401, WWW-Authenticate, no session", async () => {
      const response = await rawInitialize(server.mcpUrl);
      expect(response.status).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="skills-kernel"');
      expect(response.headers["mcp-session-id"]).toBeUndefined();
      // docs/deployment.md: the Host and Origin check comes first, so a foreign Host gets its 403.
      const doc = readFileSync(join(REPO_ROOT, "docs/deployment.md"), "utf8").replace(/\s+/g, " ");
      expect(doc).toContain(
        "refused before anything else runs but the Host and Origin check (a name the server does not answer to gets its 403 first)",
      );
      const foreign = await rawInitialize(server.mcpUrl, { host: `evil.example.com:${server.port}` });
      expect([foreign.status, foreign.headers["www-authenticate"]]).toEqual([403, undefined]);
    });

    it("refuses a wrong token as invalid_token", async () => {
      const response = await rawInitialize(server.mcpUrl, { authorization: `Bearer ${TOKEN.replace(/f$/, "e")}` });
      expect(response.status).toBe(401);
      expect(response.headers["www-authenticate"]).toContain('error="invalid_token"');
    });

    it("serves a client that sends the token, and leaves health checks open", async () => {
      const { client } = await connectHttp(server.mcpUrl, { token: TOKEN });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      expect((await fetch(new URL("/healthz", server.origin))).status).toBe(200);
    });

    it("marks 2026-07-28 answers private: with a token, answers may differ per caller", async () => {
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      };
      const response = await rawRequest(server.mcpUrl, {
        method: "POST",
        headers: {
          ...MCP_HEADERS,
          authorization: `Bearer ${TOKEN}`,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
      });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body).result.cacheScope).toBe("private");
    });

    it("never writes the token to its log", () => {
      expect(server.stderr()).toContain("debug");
      expect(server.stderr()).not.toContain(TOKEN);
    });
  });

  describe("limits (config: maxSessions, maxBodyBytes)", () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await startHttpServer(["--config", join(FIXTURES, "limits.config.json")], { runtime });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("refuses a body over maxBodyBytes with 413", async () => {
      const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(5000) } });
      const response = await rawRequest(server.mcpUrl, { method: "POST", headers: MCP_HEADERS, body: big });
      expect(response.status).toBe(413);
    });

    it("refuses a session beyond maxSessions with 503 while none is idle", async () => {
      // Each SDK client holds its GET stream open: its session is in use, so none can make room.
      const listening: Awaited<ReturnType<typeof connectHttp>>[] = [];
      try {
        for (let i = 0; i < 4; i++) {
          listening.push(await connectHttp(server.mcpUrl));
          await sleep(100);
        }
        expect.unreachable("a fourth session in use was opened");
      } catch (error) {
        expect(String(error)).toContain("Too many sessions (the session limit (3))");
      } finally {
        for (const { client } of listening) await client.close();
      }
      expect(listening.length).toBeLessThanOrEqual(3);
    });

    it("answers TRACE with 405 on every path, never a 5xx", async () => {
      for (const path of ["/mcp", "/healthz", "/nowhere"]) {
        const response = await rawRequest(new URL(path, server.origin), { method: "TRACE" });
        expect(response.status, path).toBe(405);
      }
    });

    it("serves an absolute-form target as its path, answers * with 400 (OPTIONS * with 200), never a 5xx", async () => {
      const { host } = new URL(server.origin);
      const health = await rawLine(server.origin, `GET http://${host}/healthz HTTP/1.1`);
      expect(health).toEqual({ status: 200, body: expect.stringContaining('"status":"ok"') });
      // On node the target's authority is the host asked for (RFC 9112 3.2.2), so the host guard
      // judges it; Bun and Deno judge Host, so there it is answered as `GET /mcp` to this host is.
      const node = runtime === "node" || runtime === "node24";
      const evil = await rawLine(server.origin, "GET http://evil.example/mcp HTTP/1.1");
      expect(evil.status).toBe(node ? 403 : (await rawLine(server.origin, "GET /mcp HTTP/1.1")).status);
      // Bun's and Deno's own parsers answer these before the app sees them (400; Deno's OPTIONS * is a 404).
      const answers = new Map<string, number>();
      for (const line of [
        "GET * HTTP/1.1",
        "POST * HTTP/1.1",
        "OPTIONS * HTTP/1.1",
        `GET ftp://${host}/healthz HTTP/1.1`,
        "GET nowhere HTTP/1.1",
        `POST http://${host}/mcp HTTP/1.1`,
      ]) {
        const { status } = await rawLine(server.origin, line);
        expect(status, line).toBeLessThan(500);
        answers.set(line.split(" ").slice(0, 2).join(" "), status);
      }
      if (node) {
        expect(answers.get("GET *")).toBe(400);
        expect(answers.get("POST *")).toBe(400);
        expect(answers.get("OPTIONS *")).toBe(200);
        expect(answers.get(`GET ftp://${host}/healthz`)).toBe(400);
      }
    });
  });

  describe("shutdown on SIGTERM", () => {
    it("finishes the request in flight, stops accepting, and exits 0", async () => {
      const server = await startHttpServer(["--config", join(FIXTURES, "slow.config.json")], {
        runtime,
        env: { SKILLS_KERNEL_TRUST_CONFIG: "1" },
      });
      try {
        const { client } = await connectHttp(server.mcpUrl);
        const call = client.callTool({ name: "slow_tool", arguments: {} });
        await waitFor("the call to reach the tool", () => server.stderr().includes("slow_tool: working"));
        server.child.kill("SIGTERM");
        const health = () =>
          fetch(new URL("/healthz", server.origin)).then(
            (r) => r.status,
            () => "refused",
          );
        await waitFor("the server to stop accepting", async () => ["refused", 503].includes(await health()));
        expect(resultText(await call)).toBe("done");
        await client.close().catch(() => undefined);
        expect(await server.exited).toEqual({ code: 0, signal: null });
      } finally {
        await server.stop();
      }
    });
  });
});

describe("HTTP flags on the command line", () => {
  it("refuses bad values with one line and exit 2", async () => {
    for (const [args, message] of [
      [["--transport", "http", "--port", "http"], '--port must be a whole number from 0 to 65535, not "http"'],
      [["--transport", "http", "--auth-token", "short"], "--auth-token must be at least 16 characters"],
      [
        ["--port", "3000"],
        "--host, --port, --stateless, --replica-id, --auth-token, --oauth-*, --metrics and --ui apply to serve --transport http",
      ],
      [
        ["--transport", "http", "--oauth-issuer", "ftp://id.example.com", "--oauth-audience", "a"],
        '--oauth-issuer must be an http(s) URL, not "ftp://id.example.com"',
      ],
      [
        ["--transport", "http", "--auth-token", "0123456789abcdef", "--oauth-issuer", "https://id.example.com"],
        "--auth-token and --oauth-issuer do not go together: a shared token names no caller",
      ],
      [
        ["--transport", "http", "--replica-id", "r 1"],
        '--replica-id must be 1 to 32 letters, digits, - or _, not "r 1"',
      ],
    ] as const) {
      const result = await runCli([...args, "--skills-dir", EXAMPLES]);
      expect(result.stderr).toBe(`skills-kernel: ${message}\n`);
      expect(result.code).toBe(2);
    }
  });

  it("--replica-id starts every session id it mints; the start-up log names /metrics and the catalog page", async () => {
    const server = await startHttpServer(["--skills-dir", EXAMPLES, "--replica-id", "r7", "--metrics", "--ui"]);
    try {
      const { client, transport } = await connectHttp(server.mcpUrl);
      expect(transport.sessionId).toMatch(/^r7\./);
      await client.close();
      const also = server
        .stderr()
        .split("\n")
        .find((line) => line.includes("also serving"));
      expect(also?.split("also serving ")[1]?.split(", ")).toEqual(
        expect.arrayContaining([`${server.origin}/metrics`, `${server.origin}/`]),
      );
    } finally {
      await server.stop();
    }
  });

  it("warns when it listens beyond loopback without a token", async () => {
    const server = await startHttpServer(["--skills-dir", EXAMPLES, "--host", "0.0.0.0"]);
    await server.stop();
    expect(server.stderr()).toContain("listening on 0.0.0.0 without an auth token");
    expect(server.stderr()).toContain("Host and Origin are not checked");
  });
});
