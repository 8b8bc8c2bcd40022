import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { ServerPool } from "../../../../src/plugins/transports/http/server-pool.js";

const MODERN = "2026-07-28";

/** A 2026-07-28 request as a client sends it: the _meta envelope and the standard headers. */
function modernRequest(method: string, id = 1): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: {
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} },
      },
    }),
  });
}

/** The SDK's handler over a pool of real servers, counting builds and the lifetimes that ended. */
function pooled(maxIdle = 4) {
  let edition = "one";
  const lifetimes: AbortSignal[] = [];
  const pool = new ServerPool(
    (lifetime) => {
      lifetimes.push(lifetime);
      const server = new McpServer({ name: "pooled", version: "0" });
      server.registerTool("ping_tool", { description: `built for edition ${edition}` }, () => ({ content: [] }));
      return server;
    },
    () => edition,
    maxIdle,
  );
  const handler = createMcpHandler(() => pool.acquire(), { legacy: "reject" });
  const toolsList = async () => {
    const response = await handler.fetch(modernRequest("tools/list"));
    expect(response.status).toBe(200);
    const text = await response.text();
    // JSON, or one SSE event carrying it.
    return JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("data: ") + 6).split("\n")[0]!) as {
      result: { tools: { description: string }[] };
    };
  };
  return { pool, handler, lifetimes, toolsList, setEdition: (next: string) => (edition = next) };
}

describe("ServerPool", () => {
  it("serves one request after another from one server, built once", async () => {
    const { toolsList, lifetimes, handler } = pooled();
    for (let i = 0; i < 3; i++)
      expect((await toolsList()).result.tools).toEqual([
        expect.objectContaining({ description: "built for edition one" }),
      ]);
    expect(lifetimes).toHaveLength(1);
    expect(lifetimes[0]!.aborted).toBe(false);
    await handler.close();
  });

  it("builds anew when the edition changes, and ends the old server's lifetime", async () => {
    const { toolsList, lifetimes, setEdition, handler } = pooled();
    await toolsList();
    setEdition("two");
    expect((await toolsList()).result.tools[0]!.description).toBe("built for edition two");
    expect(lifetimes.map((lifetime) => lifetime.aborted)).toEqual([true, false]);
    await handler.close();
  });

  it("gives every request in flight a server of its own, and keeps at most maxIdle of them", async () => {
    const { pool, lifetimes, handler } = pooled(1);
    const servers = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(new Set(servers).size).toBe(3);
    // Closed without ever connecting (as the handler does for subscriptions/listen): back to the pool.
    await Promise.all(servers.map((server) => server.close()));
    expect(lifetimes.filter((lifetime) => lifetime.aborted)).toHaveLength(2);
    expect(await pool.acquire()).toBe(servers[0]);
    await handler.close();
  });

  it("ends every idle server's lifetime when closed", async () => {
    const { pool, toolsList, lifetimes, handler } = pooled();
    await toolsList();
    pool.close();
    expect(lifetimes[0]!.aborted).toBe(true);
    await handler.close();
  });
});
