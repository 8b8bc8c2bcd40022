import { SpanStatusCode } from "@opentelemetry/api";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { ToolInputError, errorMessage } from "./errors.js";
import type { Logger } from "./logger.js";
import type { RequestObserver } from "./request-observer.js";
import { traceToolCall } from "./tracing.js";
import type { CatalogFor, Identity, KernelTool, ToolCallExtra } from "./types.js";

/** A call's arguments checked against the tool's input schema: what the handler gets, or the first issue. */
export type CheckedInput =
  | { readonly ok: true; readonly args: unknown }
  | { readonly ok: false; readonly message: string };

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
 * The tool as the kernel keeps it: each result its handler returns is shown to the observers that
 * hear tool answers (`toolAnswered`), whichever door the call came through, since every door runs
 * this handler. `observers` is read per call: they are known only once every plugin has started.
 */
export function observedTool(
  tool: KernelTool,
  observers: () => readonly RequestObserver[],
  logger: Logger,
): KernelTool {
  const handler = tool.handler as (args: unknown, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
  return {
    ...tool,
    handler: async (args: unknown, extra: ToolCallExtra) => {
      const result = await handler(args, extra);
      for (const observer of observers()) {
        try {
          observer.toolAnswered!({ tool: tool.name, args, caller: extra, result });
        } catch (error) {
          logger.error(`an observer of tool answers failed: ${errorMessage(error)}`);
        }
      }
      return result;
    },
  } as KernelTool;
}

/**
 * How one call ended: the handler's result; refused, with a ToolInputError's message written for
 * the caller; or failed, a bug, whose error is for the log only (it may hold paths or internals).
 */
export type ToolRun =
  | { readonly kind: "result"; readonly result: CallToolResult }
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "failed"; readonly error: unknown };

/**
 * Runs a tool's handler on checked arguments, in a tool span, and says how it ended. Every way a
 * tool is called goes through here: MCP and kernel.callTool (runTool), and the REST API, which
 * answers a failed run with a 500 rather than a tool error.
 */
export async function runToolCall(tool: KernelTool, args: unknown, extra: ToolCallExtra): Promise<ToolRun> {
  const handler = tool.handler as (args: unknown, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
  try {
    const result = await traceToolCall(tool.name, async (span) => {
      const result = await handler(args, extra);
      if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    });
    return { kind: "result", result };
  } catch (error) {
    if (error instanceof ToolInputError) return { kind: "refused", message: errorMessage(error) };
    return { kind: "failed", error };
  }
}

/**
 * A tool call as an MCP result. A refusal's message reaches the caller; a bug goes to the log in
 * full and the caller learns only that the tool failed.
 */
export async function runTool(
  tool: KernelTool,
  args: unknown,
  extra: ToolCallExtra,
  logger: Logger,
): Promise<CallToolResult> {
  const run = await runToolCall(tool, args, extra);
  if (run.kind === "result") return run.result;
  if (run.kind === "refused") return toolError(`${tool.name}: ${run.message}`);
  logger.error(`tool ${tool.name} failed: ${errorMessage(run.error)}`);
  if (run.error instanceof Error && run.error.stack) logger.debug(run.error.stack);
  return toolError(`${tool.name}: internal error; the server's log has the details`);
}

/** Who a `kernel.callTool` call is made for, and how to cancel it. */
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
  if (!tool)
    return toolError(`no tool is named ${name}; this kernel has ${tools.map((t) => t.name).join(", ") || "none"}`);
  const checked = await checkToolInput(tool, input);
  if (!checked.ok) return toolError(`${name}: invalid arguments: ${checked.message}`);
  const { identity } = options;
  return runTool(
    tool,
    checked.args,
    { signal: options.signal ?? new AbortController().signal, identity, catalog: catalogFor(identity) },
    logger,
  );
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}
