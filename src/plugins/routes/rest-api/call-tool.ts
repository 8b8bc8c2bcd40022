import { checkToolInput, runToolCall } from "../../../kernel/tool-call.js";
import type { HandlerCaller, KernelTool } from "../../../kernel/types.js";

/** A tool's answer for REST: its structured content, or why it refused. */
export type ToolOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly status: 400; readonly message: string };

/**
 * Run a tool as MCP and kernel.callTool do, minus the protocol: the input is checked against the
 * tool's own schema (so REST keeps the tools' rules and caps), then the kernel runs it in its tool
 * span. A refusal is the caller's mistake (400); a bug is rethrown, for the http plugin to log and
 * answer 500.
 */
export async function callTool(
  tool: KernelTool,
  input: Record<string, unknown>,
  signal: AbortSignal,
  caller: HandlerCaller,
): Promise<ToolOutcome> {
  const checked = await checkToolInput(tool, input);
  if (!checked.ok) return { ok: false, status: 400, message: checked.message };
  const run = await runToolCall(tool, checked.args, {
    signal,
    identity: caller.identity,
    catalog: caller.catalog,
    remote: true,
  });
  if (run.kind === "refused") return { ok: false, status: 400, message: run.message };
  if (run.kind === "failed") throw run.error;
  const { result } = run;
  const structured = result.structuredContent;
  if (result.isError || typeof structured !== "object" || structured === null || Array.isArray(structured)) {
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
    return { ok: false, status: 400, message: text || `${tool.name} failed` };
  }
  return { ok: true, value: structured as Record<string, unknown> };
}
