import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { connectHttp, INITIALIZE, MCP_HEADERS } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";
import { NGINX, needsNginx, PROXY, startNginx, type Nginx } from "../helpers/nginx.js";
import { TestRedis } from "../helpers/redis.js";
import { waitFor } from "../helpers/wait.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One 2026-07-28 tools/call through the balancer: the result and the replica that answered. */
async function callThrough(origin: string, name: string, args: Record<string, unknown>) {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args, _meta: META },
    }),
  });
  expect(response.status).toBe(200);
  // A 2026-07-28 answer with nothing to stream is a plain JSON-RPC response.
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const { result } = (await response.json()) as { result: unknown };
  return { upstream: response.headers.get("x-upstream"), result };
}

describe.skipIf(!NGINX)(needsNginx("replicas behind nginx"), () => {
  describe("two replicas, round robin with no sticky routing, at 2026-07-28", () => {
    let replicas: HttpServerProcess[];
    let nginx: Nginx;
    beforeAll(async () => {
      // Started as a user would, with no flag for replicas: 2026-07-28 needs no session.
      replicas = await Promise.all([0, 1].map(() => startHttpServer(["--skills-dir", EXAMPLES])));
      nginx = await startNginx(
        (listen) => `
  upstream replicas { ${replicas.map((r) => `server 127.0.0.1:${r.port};`).join(" ")} keepalive 16; }
  server { listen ${listen}; location / { proxy_pass http://replicas; ${PROXY} } }`,
      );
    });
    afterAll(async () => {
      await nginx?.stop();
      await Promise.all((replicas ?? []).map((r) => r.stop()));
    });

    it("gives the same answers whichever replica serves the request", async () => {
      const calls = [
        ["search_skills", { query: "release notes" }],
        ["search_skills", { query: "commit message", limit: 2 }],
        ["list_skills", { format: "json" }],
      ] as const;
      const upstreams = new Set<string | null>();
      for (const [name, args] of calls) {
        const answers = [];
        for (let i = 0; i < 4; i++) {
          const { upstream, result } = await callThrough(nginx.origin, name, args);
          upstreams.add(upstream);
          answers.push(result);
        }
        for (const answer of answers) expect(answer).toEqual(answers[0]);
      }
      expect([...upstreams].sort()).toEqual(replicas.map((r) => `127.0.0.1:${r.port}`).sort());
    });

    it("serves the v2 client at 2026-07-28 through the balancer, whichever replica each request reaches", async () => {
      const { client, transport } = await connectHttp(new URL("/mcp", nginx.origin), { revision: "2026-07-28" });
      expect(transport.sessionId).toBeUndefined();
      for (let i = 0; i < 4; i++) {
        const found = await client.callTool({ name: "search_skills", arguments: { query: "readme" } });
        expect(found.structuredContent).toMatchObject({ results: [{ id: "readme-reviewer" }] });
        expect((await client.listResources()).resources.map((r) => r.name)).toContain("readme-reviewer");
      }
      await client.close();
    });

    it("loses a 2025-11-25 session without sticky routing: sessions need it (below)", async () => {
      const statuses = new Set<number>();
      const opened = await fetch(`${nginx.origin}/mcp`, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE });
      await opened.text();
      const session = { ...MCP_HEADERS, "mcp-session-id": opened.headers.get("mcp-session-id")! };
      for (let i = 0; i < 4; i++) {
        const ping = await fetch(`${nginx.origin}/mcp`, {
          method: "POST",
          headers: session,
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" }),
        });
        await ping.text();
        statuses.add(ping.status);
      }
      // Round robin sends every other request to the replica that never saw the session.
      expect([...statuses].sort()).toEqual([200, 404]);
    });
  });

  describe("two replicas sharing one Redis", () => {
    let redis: TestRedis;
    const replicas: HttpServerProcess[] = [];
    let nginx: Nginx | undefined;
    beforeAll(async () => {
      redis = await TestRedis.start();
    });
    afterAll(async () => {
      await nginx?.stop();
      await Promise.all(replicas.map((r) => r.stop()));
      await redis?.kill();
    });

    const cacheStats = async (origin: string) =>
      (
        (await callThrough(origin, "get_cache_stats", {})).result as {
          structuredContent: { hits: number; misses: number; backend: string; entries?: Record<string, number> };
        }
      ).structuredContent;

    it("what one replica cached is a hit for the other, and the balancer gets the same answers from both", async () => {
      const args = ["--skills-dir", EXAMPLES, "--cache", redis.url];
      const first = await startHttpServer(args);
      replicas.push(first);
      await callThrough(first.origin, "list_skills", {});
      // Writes are queued: wait until Redis holds the first replica's snapshot of its root (a head and one chunk).
      await waitFor("the first replica's entries in Redis", async () =>
        Object.values((await cacheStats(first.origin)).entries ?? {}).includes(2),
      );
      const second = await startHttpServer(args);
      replicas.push(second);
      await callThrough(second.origin, "list_skills", {});
      expect(await cacheStats(second.origin)).toMatchObject({ backend: "redis", hits: 2, misses: 0 });
      const ready = await fetch(new URL("/readyz", second.origin));
      expect(await ready.json()).toEqual({ status: "ready", checks: { catalog: "loaded", cache: "connected" } });

      nginx = await startNginx(
        (listen) => `
  upstream replicas { ${replicas.map((r) => `server 127.0.0.1:${r.port};`).join(" ")} }
  server { listen ${listen}; location / { proxy_pass http://replicas; ${PROXY} } }`,
      );
      const answers = [];
      for (let i = 0; i < 4; i++)
        answers.push((await callThrough(nginx.origin, "search_skills", { query: "release notes" })).result);
      for (const answer of answers) expect(answer).toEqual(answers[0]);
    });
  });

  describe("two replicas with 2025-11-25 sessions, each session routed to the replica that holds it", () => {
    let replicas: HttpServerProcess[];
    let nginx: Nginx;
    beforeAll(async () => {
      // As docs/deployment.md starts them: each replica names itself with --replica-id.
      replicas = await Promise.all(
        ["r1", "r2"].map((replicaId) => startHttpServer(["--skills-dir", EXAMPLES, "--replica-id", replicaId])),
      );
      // An initialize has no session id yet: any replica takes it (round robin) and mints an id
      // that names it; every later request of the session goes where its id says.
      nginx = await startNginx(
        (listen) => `
  upstream any_replica { ${replicas.map((r) => `server 127.0.0.1:${r.port};`).join(" ")} }
  map $http_mcp_session_id $replica {
    ~^r1\\. 127.0.0.1:${replicas[0]!.port};
    ~^r2\\. 127.0.0.1:${replicas[1]!.port};
    default any_replica;
  }
  server { listen ${listen}; location / { proxy_pass http://$replica; ${PROXY} } }`,
      );
    });
    afterAll(async () => {
      await nginx?.stop();
      await Promise.all((replicas ?? []).map((r) => r.stop()));
    });

    it("keeps every session on its replica while sessions spread over both", async () => {
      const clients = await Promise.all([0, 1, 2, 3].map(() => connectHttp(new URL("/mcp", nginx.origin))));
      const owners = new Set(clients.map(({ transport }) => transport.sessionId!.split(".")[0]));
      expect([...owners].sort()).toEqual(["r1", "r2"]);
      for (const { client } of clients) {
        for (let i = 0; i < 3; i++) {
          const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes" } });
          expect(found.structuredContent).toMatchObject({ results: [{ id: "changelog-curator" }] });
        }
      }
      await Promise.all(clients.map(({ client }) => client.close()));
    });
  });
});
