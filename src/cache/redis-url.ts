/** A Redis location, checked: the URL to connect to, and how to show it without its password. */
export interface RedisLocation {
  readonly url: string;
  readonly display: string;
}

/**
 * Checks `redis://HOST[:PORT][/DB]` (or `rediss://` for TLS, with an optional `user:password@`),
 * so a typo fails the boot with a clear message instead of a client retrying forever.
 */
export function parseRedisUrl(text: string): RedisLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${clip(text)}" is not a URL; expected redis://HOST:PORT[/DB]`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new Error(`"${clip(text)}" is not a redis:// or rediss:// URL`);
  }
  if (url.hostname === "") throw new Error(`"${clip(text)}" names no host; expected redis://HOST:PORT[/DB]`);
  const db = url.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d{1,5}$/.test(db))
    throw new Error(`the database in "${clip(text)}" must be a number, like redis://HOST:PORT/0`);
  if (url.search !== "" || url.hash !== "")
    throw new Error(`"${clip(text)}" has a query or fragment; expected redis://HOST:PORT[/DB]`);
  const shown = new URL(url.href);
  if (shown.password !== "") shown.password = "***";
  return { url: url.href, display: shown.href };
}

function clip(text: string): string {
  const noPassword = text.replace(/\/\/([^/@]*):[^/@]*@/, "//$1:***@");
  return noPassword.length > 100 ? `${noPassword.slice(0, 100)}...` : noPassword;
}
