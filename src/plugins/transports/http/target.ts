import { restError } from "./respond.js";

/** What a request line's target is served as: a path (and the Host it names), or the answer to send. */
export type Target = { readonly path: string; readonly host: string | undefined } | Response;

/** Methods an `OPTIONS *` answer names: the server's, as a whole. */
const SERVED = "GET, HEAD, POST, DELETE, OPTIONS";

/**
 * The origin-form path of a request target as node:http hands it over, which the MCP SDK's
 * adapter glues to the Host header (a 500 for anything but a path). Absolute-form
 * (`GET http://host/mcp`, what proxies are sent) is served as its path, its authority taking the
 * place of Host as RFC 9112 3.2.2 says, so the host guard judges that; asterisk-form (`*`) is for
 * `OPTIONS` alone, which asks about the server as a whole.
 */
export function originForm(method: string, target: string, host: string | undefined): Target {
  if (target === "*") {
    return method === "OPTIONS"
      ? new Response(null, { status: 200, headers: { allow: SERVED } })
      : restError(400, `the request target * is for OPTIONS alone; ${method} needs a path`);
  }
  let path = target;
  if (!target.startsWith("/")) {
    const absolute = URL.canParse(target) ? new URL(target) : undefined;
    if (
      absolute === undefined ||
      (absolute.protocol !== "http:" && absolute.protocol !== "https:") ||
      absolute.host === ""
    )
      return restError(400, "the request target is neither a path nor an http(s) URL");
    path = `${absolute.pathname}${absolute.search}`;
    host = absolute.host;
  }
  if (!URL.canParse(`http://${host ?? "localhost"}${path}`))
    return restError(400, "the Host header is not a host name or address");
  return { path, host };
}
