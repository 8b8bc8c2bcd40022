import { ProtocolErrorCode } from "@modelcontextprotocol/server";

/**
 * A host's mistake: JSON-RPC -32602 with this message as is. The SDK sends any error's `code` and
 * `message`; an McpError's message would carry an "MCP error -32602:" prefix on the wire.
 */
export class InvalidParams extends Error {
  readonly code = ProtocolErrorCode.InvalidParams;

  constructor(message: string) {
    super(message);
    this.name = "InvalidParams";
  }
}
