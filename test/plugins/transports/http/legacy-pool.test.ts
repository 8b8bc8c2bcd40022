import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../../src/kernel/logger.js";
import { createHttpApp, type HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { httpOptionsSchema } from "../../../../src/plugins/transports/http/options.js";

const HEADERS = {
  host: "127.0.0.1",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/**
 * A `--stateless` app over real SDK servers whose one tool says which client the server has met;
 * it counts the servers built for a pool (those given a lifetime).
 */
function statelessApp() {
  let pooledBuilds = 0;
  const app = createHttpApp({
    buildServer: ({ lifetime }) => {
      if (lifetime) pooledBuilds++;
      const server = new McpServer({ name: "legacy-pool", version: "0" });
      server.registerTool("who_called", { description: "the client this server was initialized by" }, () => ({
        content: [{ type: "text", text: server.server.getClientVersion()?.name ?? "nobody" }],
      }));
      return server;
    },
    edition: () => "one",
    personal: false,
    // MCP only: no route asks for a caller's catalog.
    catalogFor: () => {
      throw new Error("no catalog in this test");
    },
    logger: createLogger("error"),
    options: { ...httpOptionsSchema.parse({ stateless: true }), allowedHosts: ["127.0.0.1"] },
  });
  return { app, pooledBuilds: () => pooledBuilds };
}

/** One 2025-11-25 message, as a stateless client POSTs it (no session id, no 2026-07-28 envelope). */
async function post(app: HttpApp, message: object): Promise<any> {
  const response = await app.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    }),
  );
  expect(response.status).toBe(200);
  return response.json();
}

const initialize = {
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "alice", version: "1" } },
};
const whoCalled = (id: number) => ({ id, method: "tools/call", params: { name: "who_called", arguments: {} } });

describe("stateless 2025-11-25 requests", () => {
  let app: HttpApp | undefined;
  afterEach(async () => {
    await app?.close(100);
    app = undefined;
  });

  it("reuse one pooled server for calls that leave no state, one after another", async () => {
    const made = statelessApp();
    app = made.app;
    for (let id = 1; id <= 4; id++) expect((await post(app, whoCalled(id))).result.content[0].text).toBe("nobody");
    expect(made.pooledBuilds()).toBe(1);
  });

  it("answer initialize on a server of its own, so no later caller meets that client", async () => {
    const made = statelessApp();
    app = made.app;
    expect((await post(app, initialize)).result.serverInfo.name).toBe("legacy-pool");
    expect((await post(app, whoCalled(1))).result.content[0].text).toBe("nobody");
    expect((await post(app, initialize)).result.serverInfo.name).toBe("legacy-pool");
    expect((await post(app, whoCalled(2))).result.content[0].text).toBe("nobody");
    // Both calls were answered by the one pooled server, which never saw an initialize.
    expect(made.pooledBuilds()).toBe(1);
  });
});
