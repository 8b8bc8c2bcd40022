import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { RequestObserver } from "./request-observer.js";
import { VERSION } from "../version.js";

/**
 * Spans through the OpenTelemetry API only: without an SDK the host app installs, the API hands
 * out no-op spans, so a server nobody traces pays next to nothing. The tracer is looked up per
 * use, so a provider the host registers after the kernel booted is still the one used.
 */
const tracer = () => trace.getTracer("skills-kernel", VERSION);

/** `_meta` as a carrier for the host's propagator: W3C `traceparent`, `tracestate`, `baggage` are plain string keys there. */
const META_GETTER = {
  keys: (carrier: Readonly<Record<string, unknown>>) => Object.keys(carrier),
  get: (carrier: Readonly<Record<string, unknown>>, key: string) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

/**
 * A SERVER span per MCP request, named as OpenTelemetry's MCP conventions name it
 * (`tools/call search_skills`), continuing the trace a 2026-07-28 client sends in `_meta`, and
 * current while the request is handled, so tool spans and the host's own are its children.
 */
export const requestTracing: RequestObserver = {
  observe({ method, tool, meta, id, sessionId }) {
    const parent = meta ? propagation.extract(context.active(), meta, META_GETTER) : context.active();
    const span = tracer().startSpan(
      tool === undefined ? method : `${method} ${tool}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "mcp.method.name": method,
          "jsonrpc.request.id": String(id),
          ...(tool !== undefined && { "gen_ai.tool.name": tool }),
          ...(sessionId !== undefined && { "mcp.session.id": sessionId }),
        },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    return {
      run: (handle) => context.with(active, handle),
      end({ errorCode, toolError, cancelled }) {
        if (errorCode !== undefined) {
          span.setAttribute("rpc.jsonrpc.error_code", errorCode);
          span.setAttribute("error.type", String(errorCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
        } else if (toolError) {
          span.setAttribute("error.type", "tool_error");
          span.setStatus({ code: SpanStatusCode.ERROR });
        } else if (cancelled) {
          span.setAttribute("error.type", "cancelled");
        }
        span.end();
      },
    };
  },
};

/** An INTERNAL span around one tool's handler: its time apart from the protocol's, and its failure. */
export async function traceToolCall<T>(name: string, call: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(
    `execute_tool ${name}`,
    { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name } },
    async (span) => {
      try {
        return await call(span);
      } catch (error) {
        // The type only: a message may hold paths, and traces leave the machine.
        span.setAttribute("error.type", error instanceof Error ? error.name : "unknown");
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
