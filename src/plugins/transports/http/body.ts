import { systemClock, type Clock } from "../../../kernel/clock.js";

/** Why a request body was not read. */
export interface BodyRefusal {
  readonly status: 408 | 413 | 400;
  readonly message: string;
}

/**
 * A request body read whole, up to `maxBytes` and within `timeoutMs`: a client that sends a byte
 * now and then cannot hold a request (and what it holds) open for ever. node:http also cuts such
 * a body itself (requestTimeout); Bun and Deno hand the stream over as it arrives, so it is timed here.
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  timeoutMs: number,
  clock: Clock = systemClock,
): Promise<string | BodyRefusal> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  let timedOut = false;
  const timer = clock.setTimeout(() => {
    timedOut = true;
    void reader.cancel().catch(() => undefined);
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => undefined);
        return { status: 413, message: `Payload Too Large: the request body is over ${maxBytes} bytes` };
      }
      chunks.push(value);
    }
  } catch {
    if (!timedOut) return { status: 400, message: "Parse error: the request body could not be read" };
  } finally {
    clock.clearTimeout(timer);
  }
  if (timedOut)
    return { status: 408, message: `Request Timeout: the request body did not arrive within ${timeoutMs} ms` };
  return new TextDecoder().decode(Buffer.concat(chunks));
}
