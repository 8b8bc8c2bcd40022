import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { z } from "zod";
import { isPrivateHost } from "./redirects.js";

// A fetch made for a caller over HTTP must not reach the server's own network (SSRF). Checking a
// name's addresses and then letting the client resolve it again leaves a gap a DNS server can use
// (rebinding: a public address for the check, 127.0.0.1 for the connection); so every connection
// made under a guard goes to addresses that were checked when it was opened.

/** A host name's addresses (node:dns's lookup by default, under INTERNAL_TOKENS.HostLookup a test's). */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

export const systemLookup: HostLookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address }) => address);

/** Refuses connections to loopback, link-local, private, CGNAT and unspecified addresses. */
export interface AddressGuard {
  /** Hosts reached whatever they resolve to, by name (install-skill's privateHosts). */
  readonly privateHosts: readonly string[];
  /** How its names resolve: node:dns by default. */
  readonly lookup: HostLookup;
}

/** A source plugin's `refusePrivateAddresses` option (add_skill sets it for callers over HTTP). */
export const refusePrivateAddressesSchema = z.strictObject({
  /** Hosts allowed by name whatever they resolve to. */
  privateHosts: z.array(z.string().min(1).toLowerCase()).default([]),
});

/** A connection refused because its host is, or resolves to, an address inside the firewall. */
export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    address: string,
  ) {
    super(
      `${host}${address === host ? "" : ` resolves to ${address}, which`} is a loopback, link-local or private address, not fetched from here; ` +
        "the server's config may allow the host by name (install-skill's privateHosts)",
    );
    this.name = "PrivateAddressError";
  }
}

/** The host a git URL (https://, ssh://, user@host:path) or an http(s) URL reaches. */
export function hostOf(url: string): string | undefined {
  if (url.includes("://")) {
    try {
      return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
    } catch {
      return undefined;
    }
  }
  // scp-like: [user@]host:path
  return /^(?:[^@/]+@)?([^:/]+):/.exec(url)?.[1]?.toLowerCase();
}

/**
 * The addresses `host` is to be reached at, resolved once: a PrivateAddressError when the host or
 * any of its addresses is private, unless the guard names the host. Connect to these, never to
 * the name again.
 */
export async function checkedAddresses(host: string, guard: AddressGuard): Promise<readonly string[]> {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  const allowed = guard.privateHosts.includes(bare);
  if (!allowed && isPrivateHost(bare)) throw new PrivateAddressError(bare, bare);
  if (isIP(bare) !== 0) return [bare];
  const addresses = await guard.lookup(bare);
  if (addresses.length === 0) throw Object.assign(new Error(`${bare} does not resolve`), { code: "ENOTFOUND" });
  const inside = addresses.find((address) => isPrivateHost(address));
  if (!allowed && inside !== undefined) throw new PrivateAddressError(bare, inside);
  return addresses;
}

/**
 * A `lookup` for node:net and node:http(s): each connection's addresses are resolved and checked
 * as it opens, and it connects to no other.
 */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, guard).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => family === 0 || entry.family === family);
        if (usable.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: "ENOTFOUND" }),
            "",
            0,
          );
        if (options.all) return (callback as unknown as (error: null, addresses: typeof usable) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
