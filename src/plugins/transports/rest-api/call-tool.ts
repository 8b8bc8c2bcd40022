import type { CallToolResult } from "@modelcontextprotocol/server";
import { ToolInputError } from "../../../kernel/errors.js";
import { checkToolInput } from "../../../kernel/tool-call.js";
import type { HandlerCaller, KernelTool, ToolCallExtra } from "../../../kernel/types.js";

/** A tool's answer for REST: its structured content, or why it refused. */
export type ToolOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly status: 400; readonly message: string };

/**
 * Run a tool as MCP would, minus the protocol: the input is checked against the tool's own
 * schema (so REST keeps the tools' rules and caps), then its handler runs. A ToolInputError is
 * the caller's mistake (400); anything else propagates as a server error.
 */
export async function callTool(tool: KernelTool, input: Record<string, unknown>, signal: AbortSignal, caller: HandlerCaller): Promise<ToolOutcome> {
  const checked = await checkToolInput(tool, input);
  if (!checked.ok) return { ok: false, status: 400, message: checked.message };
  const handler = tool.handler as (args: unknown, extra: ToolCallExtra) => Promise<CallToolResult>;
  let result: CallToolResult;
  try {
    result = await handler(checked.args, { signal, identity: caller.identity, catalog: caller.catalog });
  } catch (error) {
    if (error instanceof ToolInputError) return { ok: false, status: 400, message: error.message };
    throw error;
  }
  const structured = result.structuredContent;
  if (result.isError || typeof structured !== "object" || structured === null || Array.isArray(structured)) {
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
    return { ok: false, status: 400, message: text || `${tool.name} failed` };
  }
  return { ok: true, value: structured as Record<string, unknown> };
}
