import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";

/** The revision the v2 client speaks: 2026-07-28 (no session), or 2025-11-25 (initialize, a session). */
export type Revision = "2026-07-28" | "2025-11-25";

/** Connect the official SDK client over Streamable HTTP, at 2025-11-25 unless told otherwise. */
export async function connectHttp(url: URL, options: { token?: string; sessionId?: string; revision?: Revision } = {}) {
  const transport = new StreamableHTTPClientTransport(url, {
    sessionId: options.sessionId,
    requestInit: options.token === undefined ? undefined : { headers: { authorization: `Bearer ${options.token}` } },
  });
  const modern = options.revision === "2026-07-28";
  const client = new Client(
    { name: "skills-kernel-e2e-http", version: "0" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  return { client, transport };
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One HTTP request through node:http, which, unlike fetch, sends any Host header: what a browser
 * tricked by DNS rebinding sends. `localAddress` (127.0.0.2…) makes it another client to the server.
 */
export function rawRequest(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
} as const;

/** An MCP POST from a given loopback source address (127.0.0.2 is another client to the server). */
export function postFrom(
  url: URL,
  localAddress: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body, localAddress });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** POST an MCP initialize and return the response (its session id is in `mcp-session-id`). */
export function rawInitialize(url: URL, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: INITIALIZE });
}

/** All the text of a tool result. */
export function resultText(result: unknown): string {
  return (result as CallToolResult).content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}
