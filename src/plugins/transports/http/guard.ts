import { createHash, timingSafeEqual } from "node:crypto";
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import { isLoopback, isWildcard } from "./options.js";
import type { RequestHead } from "./routes.js";

/** Why a request is refused before it reaches any route. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const LOOPBACK_NAMES = localhostAllowedHostnames();

/**
 * The host names requests may name: the configured ones, else the loopback names plus the bound
 * address when it is a specific one. Undefined means "check nothing": a server bound to every
 * interface cannot know its public names, so it needs `allowedHosts` (or auth) to be protected.
 */
export function defaultAllowedHosts(host: string, configured?: readonly string[]): readonly string[] | undefined {
  if (configured) return configured.map(normalizeHostname);
  if (isWildcard(host)) return undefined;
  const bound = normalizeHostname(host);
  return isLoopback(host) || LOOPBACK_NAMES.includes(bound) ? LOOPBACK_NAMES : [...LOOPBACK_NAMES, bound];
}

/** Lower case, and an IPv6 address in brackets, as URL parsing gives a Host's or Origin's name. */
function normalizeHostname(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}

/**
 * DNS-rebinding protection: a page on evil.example whose name resolves to 127.0.0.1 makes the
 * browser send `Host: evil.example` and `Origin: http://evil.example`. Both must name an allowed
 * host, checked by the SDK's own validators; an Origin may also be listed whole in
 * `allowedOrigins`. With `boundPort` (the default names of a server that knows its port), a port
 * in Host and an Origin's port must be that one: a page served from another port of this machine
 * is another origin.
 */
export function createHostGuard(
  allowedHosts: readonly string[] | undefined,
  allowedOrigins: readonly string[] = [],
  boundPort?: () => number | undefined,
) {
  if (!allowedHosts) return (): Refusal | undefined => undefined;
  const hosts = [...allowedHosts];
  const origins = new Set(allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, "")));
  const hostRefusal = (hostHeader: string | null, port: number | undefined): Refusal | undefined => {
    const host = validateHostHeader(hostHeader, hosts);
    if (!host.ok) return { status: 403, message: host.message };
    // A Host without a port is what a proxy on this machine forwards (nginx's `$host`); a browser
    // always names the port it connected to, so only a port that is not this server's is refused.
    const named = new URL(`http://${hostHeader}`).port;
    if (port !== undefined && named !== "" && Number(named) !== port) {
      return {
        status: 403,
        message: `Invalid Host: ${hostHeader} does not name this server's port ${port} (DNS-rebinding protection; allowedHosts lists other names to serve)`,
      };
    }
    return undefined;
  };
  // The verdict on the last Host seen, with the port it was judged against: a client's requests
  // name the same one, and judging it parses it twice.
  let last: { readonly host: string | null; readonly port: number | undefined; readonly refusal?: Refusal } | undefined;
  return (request: Pick<RequestHead, "headers">): Refusal | undefined => {
    const hostHeader = request.headers.get("host");
    const port = boundPort?.();
    if (last === undefined || last.host !== hostHeader || last.port !== port)
      last = { host: hostHeader, port, refusal: hostRefusal(hostHeader, port) };
    if (last.refusal) return last.refusal;
    const origin = request.headers.get("origin");
    if (origin !== null && origins.has(origin.toLowerCase())) return undefined;
    const checked = validateOriginHeader(origin, hosts);
    if (!checked.ok) return { status: 403, message: checked.message };
    if (port !== undefined && origin && portOf(origin) !== port) {
      return {
        status: 403,
        message: `Invalid Origin: ${origin} is not this server's own origin (allowedOrigins lists the pages that may call it)`,
      };
    }
    return undefined;
  };
}

/** The port a URL names, or its scheme's default. */
function portOf(url: string): number {
  const { port, protocol } = new URL(url);
  return port !== "" ? Number(port) : protocol === "https:" ? 443 : 80;
}

/**
 * Bearer-token auth. Both sides are hashed first, so the comparison is constant-time whatever the
 * lengths and the token's length never shows in the timing. The token itself is never in a message.
 */
export function createAuthGuard(token: string | undefined) {
  if (token === undefined) return (): Refusal | undefined => undefined;
  const matches = tokenMatcher(token);
  return (request: Pick<RequestHead, "headers">): Refusal | undefined => {
    const header = request.headers.get("authorization");
    const match = header === null ? null : /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
    if (!match) {
      return {
        status: 401,
        message: "authentication required: send Authorization: Bearer <token>",
        headers: { "www-authenticate": 'Bearer realm="skills-kernel"' },
      };
    }
    if (!matches(match[1]!)) {
      return {
        status: 401,
        message: "invalid token",
        headers: { "www-authenticate": 'Bearer realm="skills-kernel", error="invalid_token"' },
      };
    }
    return undefined;
  };
}

/** Whether a candidate is the token, compared in constant time over both sides' hashes. */
export function tokenMatcher(token: string): (candidate: string) => boolean {
  const expected = digest(token);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
