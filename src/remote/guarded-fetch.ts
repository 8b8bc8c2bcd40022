import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { checkedAddresses, guardedLookup, type AddressGuard } from "./address-guard.js";

/** Statuses whose answer has no body: a Response refuses one. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A GET as fetch makes it (redirects left to the caller), over node:http(s) because fetch cannot
 * be told where to connect: the guard resolves and checks the host's addresses as each connection
 * opens, and the connection goes to those alone. The Host header and TLS name stay the URL's.
 */
export async function guardedFetch(
  url: URL,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
  guard: AddressGuard,
): Promise<Response> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // An address in the URL is never looked up: it is checked here.
  if (isIP(host) !== 0) await checkedAddresses(host, guard);
  let looked = isIP(host) !== 0;
  const check = guardedLookup(guard);
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      {
        method: "GET",
        headers: { "accept-encoding": "gzip, deflate, br", ...headers },
        signal,
        // A connection of its own for each request, so each is checked as it opens.
        agent: false,
        lookup: (hostname, options, callback) => {
          looked = true;
          check(hostname, options, callback);
        },
      },
      resolve,
    );
    request.once("error", reject);
    request.end();
  });
  // A runtime whose node:http ignored `lookup` connected unchecked: its answer is not used.
  if (!looked) {
    answer.destroy();
    throw new Error(`this runtime connected to ${host} without checking its address`);
  }
  const answerHeaders = new Headers();
  for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2)
    answerHeaders.append(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
  const status = answer.statusCode ?? 0;
  if (NO_BODY.has(status)) {
    answer.resume();
    return new Response(null, { status, statusText: answer.statusMessage, headers: answerHeaders });
  }
  return new Response(Readable.toWeb(decoded(answer)) as ReadableStream<Uint8Array>, {
    status,
    statusText: answer.statusMessage,
    headers: answerHeaders,
  });
}

/** The body as fetch gives it: a gzip, deflate or brotli encoding undone. */
function decoded(answer: IncomingMessage): Readable {
  const encoding = answer.headers["content-encoding"]?.trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return answer;
  answer.once("error", (error) => decoder.destroy(error));
  return answer.pipe(decoder);
}
