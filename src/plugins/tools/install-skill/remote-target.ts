import { lookup } from "node:dns/promises";
import { ToolInputError } from "../../../kernel/errors.js";
import { isPrivateHost } from "../../../remote/redirects.js";

// A caller over HTTP who names a source makes this server fetch it: pointed at 127.0.0.1 or an
// address of the private network, that is a request from inside the firewall on the caller's
// behalf (SSRF). Such hosts are refused for remote callers unless the config names them.

/** The host a git URL (https://, ssh://, user@host:path) or catalog URL reaches. */
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
 * Refuses a source whose host is, or resolves to, a loopback, link-local or private address,
 * unless `allowed` names the host. A name that does not resolve is left for the fetch to report.
 */
export async function checkRemoteTarget(url: string, allowed: readonly string[]): Promise<void> {
  const host = hostOf(url);
  if (host === undefined) throw new ToolInputError(`${url} names no host`);
  if (allowed.includes(host)) return;
  const refusal = () =>
    new ToolInputError(
      `${host} is a loopback, link-local or private address, which add_skill does not fetch from for a caller over HTTP; ` +
        "the server's config may allow it by name (install-skill's privateHosts)",
    );
  if (isPrivateHost(host)) throw refusal();
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return;
  }
  if (addresses.some(({ address }) => isPrivateHost(address))) throw refusal();
}
