import { posix } from "node:path";

// Files that commonly hold credentials. A skill folder is copied from wherever its author worked,
// and a stray .env or private key in it must not reach an agent, a client's log or another
// machine by default. The rule looks at names only, so it costs nothing and works for any source.

/** `.env`, `.env.local`, `.env.production`…, but not the templates meant to be shared. */
const ENV_FILE = /^\.env(?:\..+)?$/i;
const ENV_TEMPLATE = /^\.env\.(?:example|sample|template|dist)$/i;

/** Private keys and keystores, by extension. */
const KEY_EXTENSIONS: ReadonlySet<string> = new Set([
  ".pem",
  ".key",
  ".p12",
  ".pfx",
  ".jks",
  ".keystore",
  ".kdbx",
  ".ppk",
]);

/** SSH private keys (their .pub halves are public). */
const SSH_KEY = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/i;

/** Files that hold tokens or passwords under a well-known name. */
const SECRET_NAMES: ReadonlySet<string> = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".htpasswd",
  ".pgpass",
  "credentials.json",
  "secrets.json",
]);

/** Folders whose every file is credentials or keys. */
const SECRET_FOLDERS: ReadonlySet<string> = new Set([".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker"]);

/** What a listing or a refusal says about a file the rule leaves out. */
export const SECRET_REASON =
  "left out because its name is that of a file that usually holds secrets (the plugin's includeSecretFiles option serves it)";

/** Whether a relative path (POSIX separators) names a file that commonly holds credentials. */
export function isSecretPath(path: string): boolean {
  const segments = path.split("/");
  const name = segments.at(-1) ?? "";
  if (segments.slice(0, -1).some((segment) => SECRET_FOLDERS.has(segment.toLowerCase()))) return true;
  if (ENV_FILE.test(name)) return !ENV_TEMPLATE.test(name);
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) || SSH_KEY.test(name) || KEY_EXTENSIONS.has(posix.extname(lower));
}

/** The option every plugin that lists, serves or installs files takes; off by default. */
export const INCLUDE_SECRET_FILES_DESCRIPTION =
  "serve and install files named like credentials (.env, *.pem, *.key, .npmrc, id_rsa, .ssh/…), which are left out by default";
