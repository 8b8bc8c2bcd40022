import type {
  CallToolResult,
  JSONRPCMessage,
  McpServer,
  MessageExtraInfo,
  Transport,
} from "@modelcontextprotocol/server";
import type { HandlerCaller } from "./types.js";

/** One MCP request as it arrives: what an observer may count. Every field is the client's, unchecked. */
export interface McpRequestInfo {
  /** The JSON-RPC method, e.g. "tools/call" or "resources/read". */
  readonly method: string;
  /** `params.name` of a tools/call. */
  readonly tool?: string;
  /** `params._meta`, where a 2026-07-28 client puts its W3C trace context. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The JSON-RPC id the answer will carry. */
  readonly id: string | number;
  /** The transport's session id (Streamable HTTP with sessions); absent over stdio. */
  readonly sessionId?: string;
  /** `params` as sent (a resources/read's `uri`, a prompts/get's `name`): unchecked, and for reading only. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** How it ended: a JSON-RPC error code, a tool result marked `isError`, or no answer at all. */
export interface McpRequestEnd {
  /** The JSON-RPC error code the answer carried, when it was an error. */
  readonly errorCode?: number;
  /** True when a tools/call answered a result marked `isError`. */
  readonly toolError?: boolean;
  /** Cancelled by the client, or the connection closed first: nothing was sent. */
  readonly cancelled?: boolean;
}

/** One tool call that returned a result, whichever way it came: MCP, the REST API or kernel.callTool. */
export interface ToolAnswer {
  /** The name of the tool called. */
  readonly tool: string;
  /** The arguments, as the tool's input schema checked them. */
  readonly args: unknown;
  /** Who called, with the catalog as they may see it. */
  readonly caller: HandlerCaller;
  /** The result the handler returned, about to be sent; for reading only. */
  readonly result: CallToolResult;
}

/**
 * Told of every MCP request a server built by the kernel receives, with the caller that server
 * answers; the function it returns is called once with the outcome, when the answer is sent.
 * `run` lets it wrap the handling (a trace context) so that work done for the request happens
 * inside it.
 */
export interface RequestObserver {
  /** Called as a request arrives; returns how to wrap its handling (`run`) and what to do with its outcome (`end`). */
  observe(
    request: McpRequestInfo,
    caller: HandlerCaller,
  ): { readonly run?: <T>(handle: () => T) => T; end(outcome: McpRequestEnd): void };
  /**
   * Told of each tool result before it is sent, through every door a tool has (usage counting).
   * It runs in the answer's path: it notes what it needs and returns; a throw is logged, never
   * the caller's.
   */
  toolAnswered?(answer: ToolAnswer): void;
}

type OnMessage = NonNullable<Transport["onmessage"]>;

/**
 * Watch every request of one McpServer. SDK v2 has no request middleware, so this wraps the
 * transport each connection hands to `connect`: its `onmessage` (set by the SDK during connect,
 * hence an accessor installed first) and its `send`, matching answers to requests by id. Only
 * this server's own transport object is touched.
 */
export function observeRequests(server: McpServer, observers: readonly RequestObserver[], caller: HandlerCaller): void {
  if (observers.length === 0) return;
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    watchTransport(transport, observers, caller);
    return connect(transport);
  };
}

function watchTransport(transport: Transport, observers: readonly RequestObserver[], caller: HandlerCaller): void {
  const pending = new Map<string | number, Array<(outcome: McpRequestEnd) => void>>();
  const finish = (id: unknown, outcome: McpRequestEnd) => {
    const ends = pending.get(id as string | number);
    if (!ends) return;
    pending.delete(id as string | number);
    for (const end of ends) end(outcome);
  };
  const dispatch = (handler: OnMessage, message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if (isCancellation(message)) finish(message.params.requestId, { cancelled: true });
    if (!isRequest(message)) return handler(message, extra);
    const params = isRecord(message.params) ? message.params : {};
    const info: McpRequestInfo = {
      method: message.method,
      id: message.id,
      ...(message.method === "tools/call" && typeof params.name === "string" && { tool: params.name }),
      ...(isRecord(params._meta) && { meta: params._meta }),
      ...(transport.sessionId !== undefined && { sessionId: transport.sessionId }),
      ...(isRecord(message.params) && { params: message.params }),
    };
    const watches = observers.map((observer) => observer.observe(info, caller));
    pending.set(
      message.id,
      watches.map((watch) => (outcome: McpRequestEnd) => watch.end(outcome)),
    );
    // Each observer's context wraps the next, the SDK's dispatch innermost.
    const handle = () => handler(message, extra);
    const wrapped = watches.reduceRight<() => unknown>(
      (next, watch) => (watch.run ? () => watch.run!(next) : next),
      handle,
    );
    wrapped();
  };
  // Each getter binds the handler current when it is read: the SDK chains onclose through the
  // previous value, which must not lead back to the newest one.
  let onmessage: OnMessage | undefined = transport.onmessage;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => {
      const current = onmessage;
      return current && ((message: JSONRPCMessage, extra?: MessageExtraInfo) => dispatch(current, message, extra));
    },
    set: (handler: OnMessage | undefined) => {
      onmessage = handler;
    },
  });
  let onclose = transport.onclose;
  Object.defineProperty(transport, "onclose", {
    configurable: true,
    enumerable: true,
    get: () => {
      const current = onclose;
      return () => {
        for (const id of [...pending.keys()]) finish(id, { cancelled: true });
        current?.();
      };
    },
    set: (handler: (() => void) | undefined) => {
      onclose = handler;
    },
  });
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    const answer = message as { id?: unknown; error?: { code?: unknown }; result?: { isError?: unknown } };
    if (("result" in answer || "error" in answer) && (typeof answer.id === "string" || typeof answer.id === "number")) {
      const code = answer.error?.code;
      finish(
        answer.id,
        typeof code === "number" ? { errorCode: code } : answer.result?.isError === true ? { toolError: true } : {},
      );
    }
    return send(message, options);
  };
}

function isRequest(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { method: string; id: string | number; params?: unknown } {
  const candidate = message as { method?: unknown; id?: unknown };
  return typeof candidate.method === "string" && (typeof candidate.id === "string" || typeof candidate.id === "number");
}

function isCancellation(message: JSONRPCMessage): message is JSONRPCMessage & { params: { requestId: unknown } } {
  const candidate = message as { method?: unknown; params?: unknown };
  return candidate.method === "notifications/cancelled" && isRecord(candidate.params);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a plugin reports to the metrics plugin, when one is loaded (TOKENS.MetricsRecorder). */
export interface MetricsRecorder {
  /** The search index was built from the whole catalog in `seconds`. */
  searchIndexBuilt(seconds: number): void;
  /**
   * One use of a skill the usage plugin counted (`reads`, `fetches`, `installs`, `searchHits`,
   * `firstHits`): totals always, a series per skill only while the catalog is small enough.
   */
  skillUsed?(skill: { readonly source: string; readonly name: string }, counter: string): void;
  /** One search whose best result was weak or absent (a total: nothing per query). */
  searchMissed?(): void;
}
