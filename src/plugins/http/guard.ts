import { createHash, timingSafeEqual } from "node:crypto";
import { isLoopback, isWildcard } from "./options.js";

/** Why a request is refused before it reaches any route. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The host names requests may name: the configured ones, else the loopback names plus the bound
 * address when it is a specific one. Undefined means "check nothing": a server bound to every
 * interface cannot know its public names, so it needs `allowedHosts` (or auth) to be protected.
 */
export function defaultAllowedHosts(host: string, configured?: readonly string[]): readonly string[] | undefined {
  if (configured) return configured.map(normalizeHostname);
  if (isWildcard(host)) return undefined;
  const bound = normalizeHostname(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);
  return isLoopback(host) || LOOPBACK_NAMES.includes(bound) ? LOOPBACK_NAMES : [...LOOPBACK_NAMES, bound];
}

function normalizeHostname(name: string): string {
  return name.toLowerCase();
}

/**
 * DNS-rebinding protection: a page on evil.example whose name resolves to 127.0.0.1 makes the
 * browser send `Host: evil.example` and `Origin: http://evil.example`. Both must name an allowed
 * host (any port, as the SDK's hostHeaderValidation compares them); an Origin may also be listed
 * whole in `allowedOrigins`.
 */
export function createHostGuard(allowedHosts: readonly string[] | undefined, allowedOrigins: readonly string[] = []) {
  if (!allowedHosts) return (): Refusal | undefined => undefined;
  const hosts = new Set(allowedHosts);
  const origins = new Set(allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, "")));
  return (request: Request, url: URL): Refusal | undefined => {
    if (!hosts.has(url.hostname.toLowerCase())) return { status: 403, message: `Host not allowed: ${url.hostname}` };
    const origin = request.headers.get("origin");
    if (origin === null || origins.has(origin.toLowerCase())) return undefined;
    let originHost: string;
    try {
      originHost = new URL(origin).hostname.toLowerCase();
    } catch {
      return { status: 403, message: "Origin not allowed" };
    }
    return hosts.has(originHost) ? undefined : { status: 403, message: `Origin not allowed: ${originHost}` };
  };
}

/**
 * Bearer-token auth. Both sides are hashed first, so the comparison is constant-time whatever the
 * lengths and the token's length never shows in the timing. The token itself is never in a message.
 */
export function createAuthGuard(token: string | undefined) {
  if (token === undefined) return (): Refusal | undefined => undefined;
  const expected = digest(token);
  return (request: Request): Refusal | undefined => {
    const header = request.headers.get("authorization");
    const match = header === null ? null : /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
    if (!match) {
      return { status: 401, message: "authentication required: send Authorization: Bearer <token>", headers: { "www-authenticate": 'Bearer realm="skills-kernel"' } };
    }
    if (!timingSafeEqual(digest(match[1]!), expected)) {
      return {
        status: 401,
        message: "invalid token",
        headers: { "www-authenticate": 'Bearer realm="skills-kernel", error="invalid_token"' },
      };
    }
    return undefined;
  };
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
