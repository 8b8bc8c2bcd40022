/**
 * How cache keys are laid out in a backend: `<prefix>:<format>:<namespace>:<key>`. The format
 * number changes whenever what an entry holds changes shape, so an old entry is never read as a
 * new one: it is simply never asked for again and expires. `:` and `%` in a namespace are escaped,
 * so the namespace of any stored key can be read back (entries per namespace in the stats).
 */
export const ENTRY_FORMAT = "v1";

export function escapeNamespace(namespace: string): string {
  return namespace.replace(/%/g, "%25").replace(/:/g, "%3A");
}

function unescapeNamespace(escaped: string): string {
  return escaped.replace(/%3A/g, ":").replace(/%25/g, "%");
}

/** The start every key of this deployment's current format shares. */
export function keyPrefix(prefix: string): string {
  return `${prefix}:${ENTRY_FORMAT}:`;
}

export function fullKey(prefix: string, namespace: string, key: string): string {
  return `${keyPrefix(prefix)}${escapeNamespace(namespace)}:${key}`;
}

/** The namespace a full key was stored under, or undefined for a key laid out otherwise. */
export function namespaceOf(prefix: string, stored: string): string | undefined {
  const start = keyPrefix(prefix);
  if (!stored.startsWith(start)) return undefined;
  const end = stored.indexOf(":", start.length);
  return end === -1 ? undefined : unescapeNamespace(stored.slice(start.length, end));
}
