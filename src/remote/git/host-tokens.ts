import type { Credentials } from "./spec.js";

/**
 * Tokens for HTTPS hosts, by the name of the environment variable that holds each: the key is
 * `host[:port]`, or `user@host[:port]` for a host that wants a user name with its token. A config
 * or a command line names the variable, never the token, so neither can leak it.
 */
export type TokenEnv = Readonly<Record<string, string>>;

/** The user name sent with a token when none is named: GitHub's, and accepted by most hosts. */
const TOKEN_USER = "x-access-token";

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HOST = /^(?:[^@\s/=]+@)?[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/** Why a TokenEnv entry is unusable, or undefined. */
export function tokenEnvProblem(key: string, variable: string): string | undefined {
  if (!HOST.test(key)) return `"${key}" is not a host ([user@]host[:port])`;
  if (!VARIABLE.test(variable)) return `"${variable}" is not an environment variable name`;
  return undefined;
}

/** `[user@]host=VAR` entries (the CLI's --token-env) as a TokenEnv; a malformed one throws saying why. */
export function parseTokenEnv(entries: readonly string[]): TokenEnv {
  const parsed: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf("=");
    const problem =
      equals <= 0
        ? `"${entry}" is not HOST=VARIABLE`
        : tokenEnvProblem(entry.slice(0, equals), entry.slice(equals + 1));
    if (problem) throw new Error(problem);
    parsed[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return parsed;
}

/**
 * The credentials git and the GitHub API get for `url` from the environment: the variable named
 * for its host, else `GITHUB_TOKEN` or `GH_TOKEN` for https://github.com. Scoped to the URL's
 * origin (scheme, host and port), so a redirect or another repository's host is given nothing.
 */
export function tokenCredentials(
  url: string,
  tokenEnv: TokenEnv = {},
  env: NodeJS.ProcessEnv = process.env,
): Credentials | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // scp-like user@host:path: ssh, which uses keys
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  for (const [key, variable] of Object.entries(tokenEnv)) {
    const at = key.lastIndexOf("@");
    if (key.slice(at + 1).toLowerCase() !== parsed.host) continue;
    const token = env[variable];
    return token
      ? { origin: parsed.origin, username: at > 0 ? key.slice(0, at) : TOKEN_USER, password: token }
      : undefined;
  }
  if (parsed.protocol !== "https:" || parsed.host !== "github.com") return undefined;
  const token = env.GITHUB_TOKEN || env.GH_TOKEN;
  return token ? { origin: parsed.origin, username: TOKEN_USER, password: token } : undefined;
}
