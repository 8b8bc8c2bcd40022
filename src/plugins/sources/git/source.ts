import { realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Cache } from "../../../kernel/cache.js";
import type { Logger } from "../../../kernel/logger.js";
import type { CatalogSource, SourceSnapshot } from "../../../skills/types.js";
import { createFsSource } from "../fs/index.js";
import { isServedFrom } from "../../../skills/files/served-path.js";
import { ageOf } from "../../../remote/age.js";
import { pollEvery, pollFreshness } from "../../../remote/poll.js";
import { ensureCheckout } from "./checkout.js";
import { GitError } from "../../../remote/git/run.js";
import { COMMIT, type Credentials } from "../../../remote/git/spec.js";
import type { AddressGuard } from "../../../remote/address-guard.js";

export interface GitSourceSettings {
  readonly name: string;
  readonly url: string;
  readonly ref?: string;
  readonly path?: string;
  /** The folder checkouts go in. */
  readonly checkouts: string;
  readonly cache: Cache;
  readonly refTtlMs: number;
  readonly timeoutMs: number;
  /** The most one checkout may take on disk. */
  readonly maxTotalBytes: number;
  readonly protocols: readonly string[];
  readonly followRedirects: boolean;
  readonly addressGuard?: AddressGuard;
  readonly credentials?: Credentials;
  readonly maxDepth: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
  readonly logger: Logger;
  /** The kernel serves nothing (PluginRuntimeContext.inProcessOnly): the checkout loads and reads as the fs plugin's folders then do. */
  readonly inProcessOnly: boolean;
}

/** Folders one scan visits at most, as the fs source's default. */
const MAX_DIRECTORIES = 20_000;

/**
 * A git repository as a skill source: the checkout is a folder on disk, so scanning, parsing and
 * serving files are the fs source's, with its limits and symlink rules, over that folder.
 */
export function createGitSource(settings: GitSourceSettings): CatalogSource {
  let served: CatalogSource | undefined;
  const current = () => {
    if (!served) throw new GitError(`${settings.url} has not been checked out yet`);
    return served;
  };
  const at = `${settings.url}${settings.ref ? `#${settings.ref}` : ""}${settings.path ? `:${settings.path}` : ""}`;
  return {
    name: settings.name,
    description: at,
    async load(signal, options): Promise<SourceSnapshot> {
      const refTtlMs = options?.revalidate ? 0 : settings.refTtlMs;
      const checkout = await ensureCheckout({ ...settings, refTtlMs, dir: settings.checkouts }, signal);
      const root = settings.path === undefined ? checkout.dir : join(checkout.dir, settings.path);
      if (!(await isFolder(root)))
        throw new GitError(`${settings.url} has no folder "${settings.path}" at ${checkout.commit.slice(0, 12)}`);
      if (!(await staysInCheckout(root, checkout.dir)))
        throw new GitError(
          `${settings.url}'s folder "${settings.path}" is a link out of the repository; it is not served`,
        );
      const source = createFsSource({
        name: settings.name,
        roots: [root],
        maxDepth: settings.maxDepth,
        maxDirectories: MAX_DIRECTORIES,
        maxFrontmatterBytes: settings.maxFrontmatterBytes,
        maxSkillFileBytes: settings.maxSkillFileBytes,
        // A checkout never changes under us: a new commit is a new folder, found by the next load.
        watch: false,
        maxWatchedDirectories: 0,
        pollIntervalMs: 60_000,
        logger: settings.logger,
        loadInSlices: !settings.inProcessOnly,
        blockingReads: settings.inProcessOnly,
      });
      const snapshot = await source.load(signal);
      served = source;
      settings.logger.debug(
        `${settings.name}: ${at} at ${checkout.commit.slice(0, 12)}, ${snapshot.skills.length} skills`,
      );
      if (checkout.stale === undefined) return snapshot;
      const stale = {
        severity: "warning" as const,
        source: settings.name,
        path: "",
        code: "stale",
        message: `serving commit ${checkout.commit.slice(0, 12)}, checked ${ageOf(checkout.checkedAt)}: the remote could not be asked for a newer one (${checkout.stale})`,
      };
      return { skills: snapshot.skills, diagnostics: [stale, ...snapshot.diagnostics] };
    },
    readDocument: (skillPath, maxBytes, signal) => current().readDocument(skillPath, maxBytes, signal),
    listFiles: (skillPath, limit, signal) => current().listFiles(skillPath, limit, signal),
    readFile: (skillPath, filePath, maxBytes, signal) => current().readFile(skillPath, filePath, maxBytes, signal),
    // A branch is asked for again once its TTL has passed; a commit never changes.
    watch: pollEvery(settings.ref !== undefined && COMMIT.test(settings.ref) ? undefined : settings.refTtlMs),
    freshness: pollFreshness(settings.ref !== undefined && COMMIT.test(settings.ref) ? undefined : settings.refTtlMs),
  };
}

/** Whether the folder served is the checkout or lies in it, links resolved: never `.git` or a link out. */
async function staysInCheckout(root: string, checkout: string): Promise<boolean> {
  const [realRoot, realCheckout] = await Promise.all([realpath(root), realpath(checkout)]);
  return realRoot === realCheckout || isServedFrom(realRoot, realCheckout);
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
