import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LimitedTransport } from "./limited-transport.js";
import { mcpError } from "./respond.js";
import type { LegacyServerFactory } from "./sessions.js";
import type { Caller } from "./auth/gate.js";

/**
 * Requests a server answers without keeping anything of the client: `initialize` records the
 * client's capabilities and revision, `logging/setLevel` a level, subscriptions a listener, and
 * none of those may reach the next caller of a reused server.
 */
const LEAVES_NO_STATE = new Set([
  "ping",
  "tools/list",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
]);

/** One request (not a batch) whose answer leaves its server as it found it, so a pooled one may answer it. */
export function leavesNoClientState(parsedBody: unknown): boolean {
  if (typeof parsedBody !== "object" || parsedBody === null || Array.isArray(parsedBody)) return false;
  const { method, id } = parsedBody as { method?: unknown; id?: unknown };
  return id !== undefined && typeof method === "string" && LEAVES_NO_STATE.has(method);
}

/**
 * A 2025-11-25 request served on its own, with no session (`stateless`): a server from
 * `createServer` (pooled or built for it, as the caller decides) on a fresh SDK transport, answering
 * in JSON and closed once it has answered, so any replica can take any request.
 */
export async function serveLegacyOnce(
  createServer: LegacyServerFactory,
  request: Request,
  parsedBody: unknown,
  maxAnswerBytes: number,
  caller: Caller,
): Promise<Response> {
  if (request.method !== "POST")
    return mcpError(405, "Method not allowed: this server is stateless; POST each request", { allow: "POST" });
  const server = await createServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(new LimitedTransport(transport, maxAnswerBytes));
    return await transport.handleRequest(request, { parsedBody, authInfo: caller.authInfo });
  } finally {
    void server.close();
  }
}
