/** A repository, a ref and a folder in it, as `--git` and the config's short form give them. */
export interface RepositorySpec {
  /** A URL git understands: https://, ssh://, file://, or scp-like user@host:path. */
  readonly url: string;
  /** A branch, tag or commit; the remote's default branch when absent. */
  readonly ref?: string;
  /** A folder in the repository, POSIX separators, no leading or trailing "/". */
  readonly path?: string;
  /** `owner/repo` when the spec was GitHub shorthand. */
  readonly github?: { readonly owner: string; readonly repo: string };
  /** What the URL held before `@` over HTTP(S), taken out of `url` (see splitCredentials). */
  readonly credentials?: Credentials;
}

/** A user name and password (or token) for an HTTP(S) remote, given to git only when it asks. */
export interface Credentials {
  /** Where they are for: scheme://host[:port]. */
  readonly origin: string;
  readonly username: string;
  readonly password: string;
}

/** A full commit id (SHA-1, or SHA-256 in a repository that uses it): content pinned to it never changes. */
export const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

const SHORTHAND = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:/;

/**
 * Parses `URL|owner/repo[#REF][:PATH]`. `owner/repo` means https://github.com/owner/repo.
 * The `:PATH` is the last ":" after the repository part (after `#REF` when there is one), so
 * URLs with a port (`https://host:8443/x`) and scp-like URLs (`git@host:x`) keep theirs.
 */
export function parseRepositorySpec(spec: string): RepositorySpec {
  const text = spec.trim();
  if (text === "") throw new Error("a repository spec is empty");
  if (text.startsWith("-")) throw new Error(`"${text}" is not a repository (it starts with "-")`);
  let repository = text;
  let ref: string | undefined;
  let path: string | undefined;
  const hash = text.indexOf("#");
  let rest: string | undefined;
  if (hash !== -1) {
    repository = text.slice(0, hash);
    rest = text.slice(hash + 1);
    const colon = rest.indexOf(":");
    ref = colon === -1 ? rest : rest.slice(0, colon);
    path = colon === -1 ? undefined : rest.slice(colon + 1);
  } else {
    const colon = text.lastIndexOf(":");
    if (colon > repositoryPartEnd(text)) {
      repository = text.slice(0, colon);
      path = text.slice(colon + 1);
    }
  }
  const shown = redactCredentials(text);
  if (ref !== undefined) checkRef(ref, shown);
  if (path !== undefined) path = checkFolder(path, shown);
  const short = SHORTHAND.exec(repository);
  if (short) {
    const [, owner, repo] = short as unknown as [string, string, string];
    const name = repo.replace(/\.git$/, "");
    return { url: `https://github.com/${owner}/${name}.git`, ref, path, github: { owner, repo: name } };
  }
  if (!repository.includes("://") && !SCP_LIKE.test(repository)) {
    throw new Error(
      `"${shown}" is neither owner/repo nor a repository URL (https://, ssh://, file:// or user@host:path)`,
    );
  }
  const { url, credentials } = splitCredentials(repository);
  return { url, ref, path, github: githubOf(url), ...(credentials ? { credentials } : {}) };
}

/** `https://***@host/x.git` for `https://deploy:TOKEN@host/x.git`: a URL fit for a message. */
export function redactCredentials(text: string): string {
  return text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, "$1***@");
}

/**
 * Takes the user name and password out of an http(s) URL (`https://deploy:TOKEN@host/x.git`), and
 * the password out of any other: git writes the URL it clones into the checkout's .git/config and
 * names it in messages, and the URL goes into cache keys, logs and source descriptions.
 */
export function splitCredentials(url: string): { url: string; credentials?: Credentials } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url }; // scp-like (user@host:path): no password in that form
  }
  if (parsed.username === "" && parsed.password === "") return { url };
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  const http = parsed.protocol === "https:" || parsed.protocol === "http:";
  // Over ssh the user name picks the account and is no secret; a password there is never used.
  const start = url.indexOf("://") + 3;
  const end = url.slice(start).search(/[/?#]/);
  const authority = end === -1 ? url.slice(start) : url.slice(start, start + end);
  const rest = url.slice(start + authority.lastIndexOf("@") + 1);
  const clean = `${parsed.protocol}//${http || parsed.username === "" ? "" : `${parsed.username}@`}${rest}`;
  return http ? { url: clean, credentials: { origin: parsed.origin, username, password } } : { url: clean };
}

/** Where a URL's host part ends: a ":" before it belongs to the scheme, the port or scp syntax. */
function repositoryPartEnd(text: string): number {
  const scheme = text.indexOf("://");
  if (scheme !== -1) {
    const slash = text.indexOf("/", scheme + 3);
    return slash === -1 ? text.length : slash;
  }
  if (SCP_LIKE.test(text)) return text.indexOf(":");
  return -1;
}

/** A branch, tag or commit name that can never be read as an option or step outside refs/. */
export function checkRef(ref: string, spec: string): string {
  if (ref === "") throw new Error(`"${spec}": the ref after "#" is empty`);
  if (!/^[A-Za-z0-9._/-]+$/.test(ref) || ref.startsWith("-") || ref.includes("..")) {
    throw new Error(`"${spec}": "${ref}" is not a branch, tag or commit name`);
  }
  return ref;
}

/** A folder inside the repository, without leading or trailing "/"; undefined for the root. */
export function checkFolder(path: string, spec: string): string | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return undefined;
  if (
    trimmed.split("/").some((segment) => segment === "" || segment === "." || segment === "..") ||
    /[\\\0]/.test(trimmed)
  ) {
    throw new Error(`"${spec}": the folder "${path}" must be a plain relative path inside the repository`);
  }
  return trimmed;
}

/** owner/repo of a github.com URL, so the github source can serve it too. */
function githubOf(url: string): RepositorySpec["github"] {
  const match =
    /^(?:https:\/\/github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url);
  return match ? { owner: match[1]!, repo: match[2]! } : undefined;
}

/** A default source name for a repository: `owner-repo`, or the last two parts of its path. */
export function defaultSourceName(spec: RepositorySpec): string {
  const parts = spec.github
    ? [spec.github.owner, spec.github.repo]
    : spec.url
        .replace(/\.git\/?$/, "")
        .split(/[/:]/)
        .filter((part) => part !== "")
        .slice(-2);
  if (spec.path) parts.push(spec.path.split("/").at(-1)!);
  return parts.join("-").replace(/[^A-Za-z0-9._-]/g, "-");
}
