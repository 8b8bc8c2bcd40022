import { DEFAULT_PROTOCOLS, GitError, runGit } from "../remote/git/run.js";
import { COMMIT, type Credentials } from "../remote/git/spec.js";
import { pinRemote } from "../remote/git/pin.js";
import type { AddressGuard } from "../remote/address-guard.js";

/** Where a repository's ref points now, and whether asking for it pins (a tag or a commit). */
export interface ResolvedRef {
  readonly commit: string;
  readonly pinned: boolean;
}

const GIT_TIMEOUT_MS = 120_000;

/**
 * Asks the remote where `ref` points (ls-remote, no clone). A full commit id pins without asking;
 * a tag pins; a branch, or no ref (the default branch), tracks.
 */
export async function resolveRef(
  url: string,
  ref: string | undefined,
  credentials?: Credentials,
  followRedirects = true,
  addressGuard?: AddressGuard,
): Promise<ResolvedRef> {
  if (ref !== undefined && COMMIT.test(ref)) return { commit: ref.toLowerCase(), pinned: true };
  const output = await runGit(["ls-remote", "--", url, ...(ref === undefined ? ["HEAD"] : [ref])], {
    timeoutMs: GIT_TIMEOUT_MS,
    protocols: DEFAULT_PROTOCOLS,
    credentials,
    followRedirects,
    // Under a guard, git reaches the one address just checked (see pinRemote).
    pin: addressGuard && (await pinRemote(url, addressGuard)),
  });
  const refs = new Map<string, string>();
  for (const line of output.split("\n")) {
    const [sha, name] = line.split("\t");
    if (sha && name && COMMIT.test(sha)) refs.set(name, sha.toLowerCase());
  }
  if (ref === undefined) {
    const head = refs.get("HEAD");
    if (head) return { commit: head, pinned: false };
    throw new GitError(`${url} has no default branch; name a branch, tag or commit (#REF)`);
  }
  const tag = refs.get(`refs/tags/${ref}^{}`) ?? refs.get(`refs/tags/${ref}`);
  if (tag) return { commit: tag, pinned: true };
  const branch = refs.get(`refs/heads/${ref}`);
  if (branch) return { commit: branch, pinned: false };
  throw new GitError(`${url} has no branch or tag named "${ref}" (a commit must be given in full, 40 hex digits)`);
}
