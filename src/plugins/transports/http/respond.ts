/** A JSON response; every answer of the HTTP server is JSON or an MCP stream. */
export function json(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** An error in the shape MCP clients read (a JSON-RPC error with no id), as the SDK's own transport answers. */
export function mcpError(status: number, message: string, headers: Readonly<Record<string, string>> = {}): Response {
  return json(status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null }, headers);
}

/** An error in the REST shape: `{ "error": { "status", "message" } }`. */
export function restError(status: number, message: string, headers: Readonly<Record<string, string>> = {}): Response {
  return json(status, { error: { status, message } }, headers);
}

/** A JSON-RPC error answering a whole HTTP request, so with no id, as the SDK's transport refuses one. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return json(status, { jsonrpc: "2.0", error: { code, message }, id: null });
}

/**
 * Call `done` once the response is complete: an event stream when it has been sent in full or its
 * reader went away (it is relayed chunk by chunk to see that), anything else at once, since every
 * other answer here is built whole before it is returned.
 */
export function onSettled(response: Response, done: () => void): Response {
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    done();
    return response;
  }
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    done();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          controller.close();
          settle();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        controller.error(error);
        settle();
      }
    },
    async cancel(reason) {
      settle();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** An answer made by heldBytesResponse: its bytes beside it, not in a body. */
class HeldBytesResponse extends Response {
  constructor(
    readonly heldBytes: Uint8Array,
    init: ResponseInit,
  ) {
    super(null, init);
  }
}

/**
 * An answer of bytes the server holds in memory (a built archive, the discovery index), made
 * without its body: withBody gives it one, and Node's listener writes the bytes straight to the
 * socket instead, so serving them builds no web stream and copies nothing per request.
 */
export function heldBytesResponse(bytes: Uint8Array, init: ResponseInit): Response {
  return new HeldBytesResponse(bytes, init);
}

/** The bytes of an answer made by heldBytesResponse; undefined for any other. */
export function heldBytesOf(response: Response): Uint8Array | undefined {
  return response instanceof HeldBytesResponse ? response.heldBytes : undefined;
}

/** The answer with its body, for whatever reads it as a Response (Bun, Deno, an embedding app). */
export function withBody(response: Response): Response {
  const bytes = heldBytesOf(response);
  if (bytes === undefined) return response;
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Methods the Fetch standard forbids in a Request (node's adapter cannot even build one): no path serves them. */
export const UNSERVED_METHODS: ReadonlySet<string> = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The answer to one of UNSERVED_METHODS, on any path. */
export function methodNotServed(method: string): Response {
  return restError(405, `${method} is not served here`, { allow: "GET, HEAD, POST, DELETE" });
}
