import { specTypeSchemas } from "@modelcontextprotocol/client";

/** Whether `value` fits MCP's JSON-RPC message envelope. */
export function isJSONRPCMessage(value: unknown): boolean {
  return specTypeSchemas.JSONRPCMessage["~standard"].validate(value).issues === undefined;
}
