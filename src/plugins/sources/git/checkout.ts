import { createHash, randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Cache } from "../../../kernel/cache.js";
import { errorMessage } from "../../../kernel/errors.js";
import { OverByteCapError, withByteCap } from "./byte-cap.js";
import { GitError, runGit, type GitRunOptions } from "../../../remote/git/run.js";
import { COMMIT, type Credentials } from "../../../remote/git/spec.js";
import { pinRemote } from "../../../remote/git/pin.js";
import type { AddressGuard } from "../../../remote/address-guard.js";
import { systemClock, type Clock } from "../../../kernel/clock.js";

export interface CheckoutSettings {
  readonly url: string;
  readonly ref?: string;
  readonly path?: string;
  /** The folder holding this plugin's checkouts. */
  readonly dir: string;
  /** How long a branch's (or the default branch's) commit is trusted before asking the remote again. */
  readonly refTtlMs: number;
  readonly timeoutMs: number;
  readonly protocols: readonly string[];
  /** Remembers which commit each ref was last seen at. */
  readonly cache: Cache;
  /** The most a checkout may take on disk, its .git included; checked while git writes. */
  readonly maxTotalBytes: number;
  /** For an HTTP(S) remote whose URL held them; `url` no longer does. */
  readonly credentials?: Credentials;
  /** false: git fails on an HTTP redirect instead of following it. */
  readonly followRedirects: boolean;
  /** Set: git connects only to an address of the remote's host checked under it, resolved once per fetch. */
  readonly addressGuard?: AddressGuard;
  /** When a ref was checked, against refTtlMs (default: the system's). */
  readonly clock?: Pick<Clock, "now">;
}

export interface Checkout {
  /** The checked-out tree's root (a sparse checkout holds only `path` and top-level files). */
  readonly dir: string;
  readonly commit: string;
  /** Set when the remote could not be asked and an earlier checkout is served: why. */
  readonly stale?: string;
  /** When the remote last confirmed this commit (ms since the epoch), for a stale checkout. */
  readonly checkedAt?: number;
}

interface RefState {
  readonly commit: string;
  readonly checkedAt: number;
  readonly [key: string]: string | number;
}

/** Kept this long so that an unreachable remote still leaves the last commit to serve. */
const REF_STATE_KEEP_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The repository's tree at the ref, checked out (shallow, sparse when a path is given) into the
 * cache folder. A commit's checkout is kept for good and never fetched twice; a branch is asked
 * for again once its TTL has passed, and when the remote cannot be reached the last commit seen
 * is served, marked stale.
 */
export async function ensureCheckout(settings: CheckoutSettings, signal: AbortSignal): Promise<Checkout> {
  const { ref } = settings;
  if (ref !== undefined && COMMIT.test(ref)) {
    const commit = ref.toLowerCase();
    return { dir: await checkoutAt(settings, commit, signal), commit };
  }
  const key = `ref:${settings.url}#${ref ?? "HEAD"}`;
  const clock = settings.clock ?? systemClock;
  const known = asRefState(await settings.cache.get(key), clock.now());
  if (known && clock.now() - known.checkedAt < settings.refTtlMs && (await exists(folderFor(settings, known.commit)))) {
    return { dir: folderFor(settings, known.commit), commit: known.commit };
  }
  let commit: string;
  try {
    commit = await resolveRef(settings, signal);
  } catch (error) {
    if (signal.aborted || !known || !(await exists(folderFor(settings, known.commit)))) throw error;
    return {
      dir: folderFor(settings, known.commit),
      commit: known.commit,
      stale: errorMessage(error),
      checkedAt: known.checkedAt,
    };
  }
  const dir = await checkoutAt(settings, commit, signal);
  await settings.cache.set(key, { commit, checkedAt: clock.now() }, REF_STATE_KEEP_MS);
  return { dir, commit };
}

/**
 * A cache entry is checked like an answer from the network: its commit becomes a folder name, and
 * one written by anyone else with access to the cache (`../../home/x`) would serve any folder.
 */
function asRefState(value: unknown, now: number): RefState | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { commit, checkedAt } = value as Partial<RefState>;
  if (typeof commit !== "string" || !COMMIT.test(commit) || typeof checkedAt !== "number" || !(checkedAt <= now))
    return undefined;
  return { commit: commit.toLowerCase(), checkedAt };
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

function folderFor(settings: CheckoutSettings, commit: string): string {
  return join(
    settings.dir,
    hash(settings.url),
    settings.path === undefined ? commit : `${commit}-${hash(settings.path)}`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** What every git command of one fetch runs with: under an address guard, the remote's host pinned to a checked address. */
async function gitOptions(settings: CheckoutSettings, signal: AbortSignal): Promise<GitRunOptions> {
  const pin = settings.addressGuard && (await pinRemote(settings.url, settings.addressGuard));
  return {
    timeoutMs: settings.timeoutMs,
    protocols: settings.protocols,
    credentials: settings.credentials,
    followRedirects: settings.followRedirects,
    pin,
    signal,
  };
}

/** The commit a branch, a tag (peeled) or the default branch points at, asked of the remote. */
async function resolveRef(settings: CheckoutSettings, signal: AbortSignal): Promise<string> {
  const { url, ref } = settings;
  const git = await gitOptions(settings, signal);
  const output = await runGit(
    ref === undefined ? ["ls-remote", "--", url, "HEAD"] : ["ls-remote", "--", url, ref],
    git,
  );
  const refs = new Map<string, string>();
  for (const line of output.split("\n")) {
    const [sha, name] = line.split("\t");
    if (sha && name && COMMIT.test(sha)) refs.set(name, sha.toLowerCase());
  }
  const wanted = ref === undefined ? ["HEAD"] : [`refs/heads/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`, ref];
  for (const name of wanted) {
    const sha = refs.get(name);
    if (sha) return sha;
  }
  throw new GitError(
    ref === undefined
      ? `${url} has no default branch to serve; name a branch, tag or commit (#REF)`
      : `${url} has no branch or tag named "${ref}" (a commit must be given in full, 40 hex digits)`,
  );
}

/** The checkout of `commit`, made once: built in a temporary folder and renamed into place. */
async function checkoutAt(settings: CheckoutSettings, commit: string, signal: AbortSignal): Promise<string> {
  const dir = folderFor(settings, commit);
  if (await exists(dir)) return dir;
  const temporary = `${dir}.tmp-${randomUUID()}`;
  await mkdir(temporary, { recursive: true });
  try {
    await withByteCap(temporary, settings.maxTotalBytes, signal, (capped) =>
      fetchInto(temporary, settings, commit, capped),
    );
    try {
      await rename(temporary, dir);
    } catch (error) {
      // Another process finished the same checkout first: theirs is as good.
      if (!(await exists(dir))) throw error;
      await rm(temporary, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    if (error instanceof OverByteCapError)
      throw new GitError(`${settings.url} at ${commit.slice(0, 12)}: ${error.message}`);
    throw error;
  }
  return dir;
}

/** Fetches `commit` alone into the empty folder `temporary` and checks it out there. */
async function fetchInto(
  temporary: string,
  settings: CheckoutSettings,
  commit: string,
  signal: AbortSignal,
): Promise<void> {
  const git = { ...(await gitOptions(settings, signal)), cwd: temporary };
  await runGit(["init", "-q"], git);
  await runGit(["remote", "add", "origin", settings.url], git);
  // Shallow, and blobs only for what the checkout needs: a sparse checkout of one folder of a
  // large repository downloads that folder. A server without filter support sends everything.
  const fetch = ["fetch", "-q", "--depth", "1", "--filter=blob:none", "--no-tags", "--no-recurse-submodules", "origin"];
  try {
    await runGit([...fetch, commit], git);
  } catch (error) {
    // Servers that refuse a commit by id still serve the ref it came from.
    if (settings.ref === undefined || COMMIT.test(settings.ref)) throw error;
    await runGit([...fetch, settings.ref], git);
  }
  if (settings.path !== undefined) await runGit(["sparse-checkout", "set", "--", settings.path], git);
  await runGit(["checkout", "-q", "--detach", commit], git);
}
