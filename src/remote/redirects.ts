import { isIP } from "node:net";

/** Redirects one request follows at most, as browsers do give or take. */
export const MAX_REDIRECTS = 5;

export const REDIRECT_STATUS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Why a redirect from a request to `from` may not lead to `to`, or undefined when it may. Only
 * the same origin by default: a server must not steer the client (and what it sends) at another
 * host or port, an internal one least of all. `hosts` names others allowed (`cdn.example.com`,
 * or with a port); even those may not be private or loopback addresses unless `from` is one,
 * nor a step down from https.
 */
export function redirectRefusal(from: URL, to: URL, hosts: readonly string[]): string | undefined {
  if (to.protocol !== "https:" && to.protocol !== "http:") return "which is not an http(s) URL";
  if (from.protocol === "https:" && to.protocol === "http:") return "which is not https";
  if (to.origin === from.origin) return undefined;
  if (!hosts.includes(to.host) && !hosts.includes(to.hostname))
    return "another origin (name its host in redirectHosts to allow it)";
  return privateRefusal(from, to);
}

/**
 * Why `to`, reached from `from` (a redirect, or a URL a document from `from` names), may not be
 * fetched for being a private or loopback address while `from` is not one; undefined when it may.
 */
export function privateRefusal(from: URL, to: URL): string | undefined {
  return isPrivateHost(to.hostname) && !isPrivateHost(from.hostname) ? "a private or loopback address" : undefined;
}

/**
 * Loopback, private, link-local and unspecified addresses, and localhost names, as a URL's
 * hostname spells them (the URL parser has already turned `2130706433` into `127.0.0.1`). A
 * name that resolves to such an address is not caught here.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return isPrivateV4(host.split(".").map(Number));
  if (isIP(host) !== 6) return false;
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(host);
  if (mapped) {
    if (mapped[1]) return isPrivateV4(mapped[1].split(".").map(Number));
    const high = Number.parseInt(mapped[2]!, 16);
    const low = Number.parseInt(mapped[3]!, 16);
    return isPrivateV4([high >> 8, high & 255, low >> 8, low & 255]);
  }
  if (host === "::1" || host === "::") return true;
  const first = Number.parseInt(host.split(":")[0] || "0", 16);
  // fc00::/7 unique local, fe80::/10 link-local.
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

function isPrivateV4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168)
  );
}
