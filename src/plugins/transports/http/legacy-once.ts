import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LimitedTransport } from "./limited-transport.js";
import { mcpError } from "./respond.js";
import type { LegacyServerFactory } from "./sessions.js";
import type { Caller } from "./auth/gate.js";

/**
 * A 2025-11-25 request served on its own, with no session (`stateless`): a fresh server and SDK
 * transport, answering in JSON and closed once it has answered, so any replica can take any request.
 */
export async function serveLegacyOnce(
  createServer: LegacyServerFactory,
  request: Request,
  parsedBody: unknown,
  maxAnswerBytes: number,
  caller: Caller,
): Promise<Response> {
  if (request.method !== "POST") return mcpError(405, "Method not allowed: this server is stateless; POST each request", { allow: "POST" });
  const server = await createServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(new LimitedTransport(transport, maxAnswerBytes));
    return await transport.handleRequest(request, { parsedBody, authInfo: caller.authInfo });
  } finally {
    void server.close();
  }
}
