import type { HttpOptions } from "../options.js";
import type { Caller } from "./gate.js";

/**
 * Whether a caller the server's auth let through is one of its operators (who read usage figures):
 * with sign-in, a token holding `scope`; with a static token, whoever holds it, since it is the
 * operator's; on a server without auth, or outside the http plugin, nobody.
 */
export function isOperator(
  options: Pick<HttpOptions, "authToken" | "oauth"> | undefined,
  caller: Caller,
  scope: string,
): boolean {
  if (options?.oauth !== undefined) return caller.identity?.scopes.includes(scope) === true;
  return options?.authToken !== undefined;
}
