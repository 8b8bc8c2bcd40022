/** What answers HTTP in process: an embedded kernel (kernel.fetch) or the handler it hands out. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

/**
 * A request for `path` as one on loopback would reach an embedded kernel: with the Host header a
 * socket would carry, which the http plugin's DNS-rebinding guard checks (one given in `init` wins).
 */
export function loopbackRequest(path: string, init: RequestInit = {}, origin = "http://127.0.0.1"): Request {
  const request = new Request(new URL(path, origin), init);
  if (!request.headers.has("host")) request.headers.set("host", new URL(origin).host);
  return request;
}

/** `path` of an embedded kernel or handler, answered in process. */
export function fetchIn(handler: FetchHandler, path: string, init?: RequestInit): Promise<Response> {
  return handler.fetch(loopbackRequest(path, init));
}

/** A fetch for an MCP client's transport that answers in process, each request given the Host a socket would carry. */
export function inProcessFetch(handler: FetchHandler): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (url, init) => {
    const request = new Request(url, init);
    request.headers.set("host", new URL(request.url).host);
    return handler.fetch(request);
  };
}
