import { ToolInputError } from "../../../kernel/errors.js";
import { checkedAddresses, hostOf, PrivateAddressError, type AddressGuard } from "../../../remote/address-guard.js";

// A caller over HTTP who names a source makes this server fetch it: pointed at 127.0.0.1 or an
// address of the private network, that is a request from inside the firewall on the caller's
// behalf (SSRF). Such hosts are refused for remote callers unless the config names them.

/**
 * Refuses a source whose host is, or resolves to, a loopback, link-local or private address,
 * unless the guard names the host: the caller hears it before anything is fetched. The source is
 * then opened under the same guard, which checks again as each connection opens. A name that does
 * not resolve is left for the fetch to report.
 */
export async function checkRemoteTarget(url: string, guard: AddressGuard): Promise<void> {
  const host = hostOf(url);
  if (host === undefined) throw new ToolInputError(`${url} names no host`);
  try {
    await checkedAddresses(host, guard);
  } catch (error) {
    if (!(error instanceof PrivateAddressError)) return;
    throw new ToolInputError(
      `${host} is a loopback, link-local or private address, which add_skill does not fetch from for a caller over HTTP; ` +
        "the server's config may allow it by name (install-skill's privateHosts)",
    );
  }
}
