import { SpanStatusCode } from "@opentelemetry/api";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { ToolInputError, errorMessage } from "./errors.js";
import type { Logger } from "./logger.js";
import { traceToolCall } from "./tracing.js";
import type { CatalogFor, Identity, KernelTool, ToolCallExtra } from "./types.js";

/** A call's arguments checked against the tool's input schema: what the handler gets, or the first issue. */
export type CheckedInput = { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly message: string };

/** Checks arguments as the SDK does before a call; the issue is said as "path: message" for the caller. */
export async function checkToolInput(tool: KernelTool, input: unknown): Promise<CheckedInput> {
  if (!tool.inputSchema) return { ok: true, args: {} };
  const checked = await tool.inputSchema["~standard"].validate(input ?? {});
  if (!checked.issues) return { ok: true, args: checked.value };
  const issue = checked.issues[0]!;
  const path = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
  return { ok: false, message: `${path || "input"}: ${issue.message}` };
}

/**
 * Runs a tool's handler on checked arguments, in a tool span. A ToolInputError is the caller's to
 * fix, and its message is written for them. Anything else is a bug: its message may hold paths or
 * internals, so it goes to the log in full and the caller learns only that the tool failed.
 */
export async function runTool(tool: KernelTool, args: unknown, extra: ToolCallExtra, logger: Logger): Promise<CallToolResult> {
  const handler = tool.handler as (args: unknown, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
  try {
    return await traceToolCall(tool.name, async (span) => {
      const result = await handler(args, extra);
      if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    });
  } catch (error) {
    if (error instanceof ToolInputError) return toolError(`${tool.name}: ${errorMessage(error)}`);
    logger.error(`tool ${tool.name} failed: ${errorMessage(error)}`);
    if (error instanceof Error && error.stack) logger.debug(error.stack);
    return toolError(`${tool.name}: internal error; the server's log has the details`);
  }
}

export interface ToolCallOptions {
  /** Who is calling, as a transport would say it: the answer is what this identity may see. */
  readonly identity?: Identity;
  /** Aborts the call (a caller that gave up). */
  readonly signal?: AbortSignal;
}

/**
 * Kernel.callTool: one tool call in process, with no MCP server or client. The arguments are
 * checked and the handler run as over MCP; the structured output is not checked against the
 * output schema, a guard the SDK keeps for MCP clients.
 */
export async function callKernelTool(
  tools: readonly KernelTool[],
  catalogFor: CatalogFor,
  logger: Logger,
  name: string,
  input: unknown,
  options: ToolCallOptions = {},
): Promise<CallToolResult> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) return toolError(`no tool is named ${name}; this kernel has ${tools.map((t) => t.name).join(", ") || "none"}`);
  const checked = await checkToolInput(tool, input);
  if (!checked.ok) return toolError(`${name}: invalid arguments: ${checked.message}`);
  const { identity } = options;
  return runTool(tool, checked.args, { signal: options.signal ?? new AbortController().signal, identity, catalog: catalogFor(identity) }, logger);
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}
