import type { JWTPayload } from "jose";
import type { Identity } from "../../../../kernel/types.js";

/** The scopes a token holds: `scope` (RFC 9068, space-separated) or `scp` (a list, as some issuers write). */
export function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(payload.scp)) return payload.scp.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/** The caller a verified token names: its subject, scopes, and the configured claims that are strings or lists of strings. */
export function identityOf(payload: JWTPayload, keep: readonly string[]): Identity {
  const claims: Record<string, string | string[]> = {};
  for (const name of keep) {
    const value = payload[name];
    if (typeof value === "string") claims[name] = value;
    else if (Array.isArray(value)) claims[name] = value.filter((item): item is string => typeof item === "string");
  }
  return { subject: payload.sub!, scopes: scopesOf(payload), claims };
}
