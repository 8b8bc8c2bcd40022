import { afterEach, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import { createHttpHandler, type HttpHandler } from "../../../../src/plugins/transports/http/handler.js";
import { bootExamples, MCP_HEADERS } from "./in-process.js";

// An app that mounts the handler answers many users: the work bounds per client apply to the
// client the app names, and requests it names none for are never lined up behind each other.

const search = (id: number) =>
  new Request("http://127.0.0.1:3000/mcp", {
    method: "POST",
    headers: {
      ...MCP_HEADERS,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "search_skills",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "search_skills",
        arguments: { query: "pdf" },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });

let kernel: SkillsKernel | undefined;
let handler: HttpHandler | undefined;
afterEach(async () => {
  await handler?.close();
  await kernel?.close();
});

describe("HttpHandler.fetch and the client it names", () => {
  it("refuses a named client past its line, and lines no unnamed requests up together", async () => {
    kernel = await bootExamples();
    handler = createHttpHandler(kernel, { maxWorkPerClient: 1, maxWorkQueuedPerClient: 1 });
    const ids = Array.from({ length: 20 }, (_, index) => index + 1);
    const named = await Promise.all(ids.map((id) => handler!.fetch(search(id), "10.0.0.1")));
    expect(named.filter((response) => response.status === 429).length).toBeGreaterThan(0);
    const unnamed = await Promise.all(ids.map((id) => handler!.fetch(search(id))));
    expect(unnamed.map((response) => response.status)).toEqual(ids.map(() => 200));
    // Mounted as it is, the runtime passes its server or connection info second: no client named.
    const mounted = handler!.fetch as (request: Request, info: unknown) => Promise<Response>;
    const info = { remoteAddr: { hostname: "10.0.0.1" } };
    const unnamedByInfo = await Promise.all(ids.map((id) => mounted(search(id), info)));
    expect(unnamedByInfo.map((response) => response.status)).toEqual(ids.map(() => 200));
  });
});
