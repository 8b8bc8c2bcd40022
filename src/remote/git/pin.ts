import { isIP } from "node:net";
import { checkedAddresses, hostOf, type AddressGuard } from "../address-guard.js";
import { GitError, type GitPin } from "./run.js";

const DEFAULT_PORTS: Readonly<Record<string, number>> = { "https:": 443, "http:": 80, "ssh:": 22 };

/**
 * The pin for `url`'s host, resolved once and checked: git then connects to that address and
 * resolves the name no more, so an answer changed after the check (DNS rebinding) reaches nothing.
 * undefined for a URL naming an address (checked, nothing to resolve) or a local path.
 */
export async function pinRemote(url: string, guard: AddressGuard): Promise<GitPin | undefined> {
  const scheme = url.includes("://") ? url.slice(0, url.indexOf("://") + 1).toLowerCase() : "ssh:";
  if (scheme === "file:") return undefined;
  const host = hostOf(url);
  if (host === undefined) throw new GitError(`${url} names no host`);
  const addresses = await checkedAddresses(host, guard).catch((error: unknown) => {
    throw new GitError(`${host}: ${(error as Error).message}`);
  });
  if (isIP(host) !== 0) return undefined;
  const address = addresses[0]!;
  const port = DEFAULT_PORTS[scheme];
  // A name that could carry shell or curl syntax into the pin is not a host name.
  if (port === undefined || !/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(host) || isIP(address) === 0) {
    throw new GitError(
      `${url} cannot be pinned to a checked address (only https, http and ssh remotes named by host name or address can)`,
    );
  }
  const given = scheme === "ssh:" && !url.includes("://") ? undefined : new URL(url).port;
  return { host, port: given ? Number(given) : port, address, transport: scheme === "ssh:" ? "ssh" : "http" };
}
