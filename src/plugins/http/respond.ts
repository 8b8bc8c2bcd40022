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

/**
 * An answer built whole as text. node:http writes it straight to the socket (listen.ts), skipping
 * the web Response and the stream the adapter would read it back through; elsewhere it becomes a
 * Response.
 */
export class TextAnswer {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    /** null for an answer with no body (202). */
    readonly body: string | null,
  ) {}

  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: this.headers });
  }
}

/** What the app answers: a web Response (streams, contributed routes) or a TextAnswer. */
export type Answer = Response | TextAnswer;

/** A JSON-RPC error with no id, as the SDK's transport refuses a whole HTTP request. */
export function jsonRpcError(status: number, code: number, message: string): TextAnswer {
  return new TextAnswer(status, { "content-type": "application/json" }, JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** A web Response for any answer, for runtimes and apps that take nothing else. */
export function toResponse(answer: Answer): Response {
  return answer instanceof TextAnswer ? answer.toResponse() : answer;
}

/**
 * Call `done` once the response is complete: an event stream when it has been sent in full or its
 * reader went away (it is relayed chunk by chunk to see that), anything else at once, since every
 * other answer here is built whole before it is returned.
 */
export function onSettled<T extends Answer>(response: T, done: () => void): T | Response {
  if (response instanceof TextAnswer || response.body === null || response.headers.get("content-type") !== "text/event-stream") {
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
