import {
  isInitializeRequest,
  isJsonContentType,
  parseJSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type McpServer,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/server";
import { jsonRpcError, TextAnswer } from "./respond.js";

// Stop-gap while this plugin moves to SDK v2's createMcpHandler (issue 22): v1 exported these.
const MAX_BATCH_SIZE = 100;
const requestBodyTooLargeMessage = (limit: number) => `Payload too large: request body exceeds ${limit} bytes`;

function parsedMessage(message: unknown): { success: true; data: JSONRPCMessage } | { success: false; data?: undefined } {
  try {
    return { success: true, data: parseJSONRPCMessage(message) };
  } catch {
    return { success: false };
  }
}

interface Pending {
  readonly clientId: RequestId;
  readonly resolve: (response: JSONRPCResponse) => void;
}

/**
 * Stateless MCP over HTTP on one McpServer, connected once. The SDK's own transport must be made
 * afresh for each stateless request, and the server connected and closed around it: building,
 * connecting and closing were most of a request's cost. Here the server's Protocol sees a single
 * long-lived connection carrying every client's requests at once, which it handles as it does a
 * session's concurrent requests.
 *
 * Clients' request ids collide (every client may send id 1), so each request travels under an id
 * of the server's own and gets its own back in the answer. Nothing a request sends can reach
 * another's: cancellations and responses name ids, which here belong to other clients, so they
 * are dropped (a stateless request has no earlier request of its own to name); notifications a
 * tool sends have no stream to go on, as with the SDK's transport in JSON mode; and a request the
 * server would send the client fails at once rather than waiting out its timeout.
 *
 * The HTTP checks are the SDK transport's, with its answers (statuses, JSON-RPC codes, messages).
 */
export class StatelessMcp implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  private constructor(private readonly maxBodyBytes: number) {}

  static async connect(server: McpServer, maxBodyBytes: number): Promise<StatelessMcp> {
    const transport = new StatelessMcp(maxBodyBytes);
    await server.connect(transport);
    return transport;
  }

  /** Nothing to open: messages arrive through handle(), one HTTP request at a time. */
  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // The server's own messages, so their shape is trusted: told apart by their keys.
    if (!("method" in message)) {
      const pending = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
      if (!pending) return;
      this.#pending.delete(message.id as number);
      pending.resolve({ ...message, id: pending.clientId });
      return;
    }
    if ("id" in message) throw new Error(`a stateless server cannot send the client a request (${message.method})`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const [id, pending] of this.#pending) {
      pending.resolve({ jsonrpc: "2.0", id: pending.clientId, error: { code: -32000, message: "the server is shutting down" } });
      this.#pending.delete(id);
    }
    this.onclose?.();
  }

  /** Answer one POST. The caller has checked Host, Origin, auth and a declared Content-Length. */
  async handle(request: Request, url: URL): Promise<TextAnswer> {
    const accept = request.headers.get("accept");
    // The SDK's test: both types named anywhere in Accept (a list, so a substring test).
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
      return jsonRpcError(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    }
    if (!isJsonContentType(request.headers.get("content-type"))) {
      return jsonRpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    let raw: unknown;
    try {
      const body = await this.#readBody(request);
      if (body === undefined) return jsonRpcError(413, -32000, requestBodyTooLargeMessage(this.maxBodyBytes));
      raw = JSON.parse(body);
    } catch {
      // As the SDK's transport answers: a body that could not be read whole is no JSON either.
      return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
    }
    if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) {
      return jsonRpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    const parsed = (Array.isArray(raw) ? raw : [raw]).map((message) => parsedMessage(message));
    if (parsed.some((result) => !result.success)) return jsonRpcError(400, -32700, "Parse error: Invalid JSON-RPC message");
    const messages = parsed.map((result) => result.data!);
    if (messages.some((message) => "method" in message && message.method === "initialize" && isInitializeRequest(message))) {
      if (messages.length > 1) return jsonRpcError(400, -32600, "Invalid Request: Only one initialization request is allowed");
    } else {
      const version = request.headers.get("mcp-protocol-version");
      if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        return jsonRpcError(
          400,
          -32000,
          `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
        );
      }
    }
    if (this.#closed) return jsonRpcError(503, -32000, "the server is shutting down");

    const extra = { request };
    const answers: Promise<JSONRPCResponse>[] = [];
    for (const message of messages) {
      // Validated above: a request has a method and an id, a notification a method alone.
      if (!("method" in message)) continue;
      if ("id" in message) answers.push(this.#dispatch(message, extra));
      else if (message.method !== "notifications/cancelled") this.onmessage?.(message, extra);
    }
    if (answers.length === 0) return new TextAnswer(202, {}, null);
    const responses = await Promise.all(answers);
    return new TextAnswer(200, { "content-type": "application/json" }, JSON.stringify(responses.length === 1 ? responses[0] : responses));
  }

  #dispatch(request: JSONRPCRequest, extra: Parameters<NonNullable<Transport["onmessage"]>>[1]): Promise<JSONRPCResponse> {
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      this.#pending.set(id, { clientId: request.id, resolve });
      this.onmessage?.({ ...request, id }, extra);
    });
  }

  /** The body as text, or undefined when it is over the limit. */
  async #readBody(request: Request): Promise<string | undefined> {
    // With a Content-Length (already checked against the limit) the body is exactly that long,
    // and text() lets node:http's adapter read it without building a web stream; a chunked body
    // is read through a stream that stops at the limit.
    if (request.headers.get("content-length") !== null) return request.text();
    const text = await request.text();
    return Buffer.byteLength(text) > this.maxBodyBytes ? undefined : text;
  }
}
