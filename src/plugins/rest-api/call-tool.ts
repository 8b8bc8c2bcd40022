import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolInputError } from "../../kernel/errors.js";
import type { ToolDefinition } from "../../kernel/types.js";

/** A tool's answer for REST: its structured content, or why it refused. */
export type ToolOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly status: 400; readonly message: string };

/**
 * Run a tool as MCP would, minus the protocol: the input is checked against the tool's own
 * schema (so REST keeps the tools' rules and caps), then its handler runs. A ToolInputError is
 * the caller's mistake (400); anything else propagates as a server error.
 */
export async function callTool(tool: ToolDefinition, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
  const shape = tool.inputSchema as z.ZodRawShape | undefined;
  const parsed = z.object(shape ?? {}).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, status: 400, message: `${issue.path.join(".") || "input"}: ${issue.message}` };
  }
  const handler = tool.handler as (args: unknown, extra: { signal: AbortSignal }) => Promise<CallToolResult>;
  let result: CallToolResult;
  try {
    result = await handler(parsed.data, { signal });
  } catch (error) {
    if (error instanceof ToolInputError) return { ok: false, status: 400, message: error.message };
    throw error;
  }
  if (result.isError || result.structuredContent === undefined) {
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
    return { ok: false, status: 400, message: text || `${tool.name} failed` };
  }
  return { ok: true, value: result.structuredContent };
}
