import type { Logger } from "../../../kernel/logger.js";
import { isRecord } from "../../../skills/skill-md/skill-md.js";
import type { FetchedDocument, RemoteDocuments } from "../../../remote/documents.js";
import { HttpError } from "../../../remote/http.js";
import { COMMIT } from "../../../remote/git/spec.js";

export interface GitHubTreeEntry {
  readonly path: string;
  readonly mode: string;
  readonly type: string;
  readonly sha: string;
  readonly size?: number;
}

export interface GitHubTree {
  readonly entries: readonly GitHubTreeEntry[];
  /** GitHub cut the recursive listing short (over 100,000 entries or 7 MB). */
  readonly truncated: boolean;
}

export interface RateLimit {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds. */
  readonly reset: number;
}

/** A tree document can be large (100,000 entries): more than any one file a skill holds. */
const MAX_TREE_BYTES = 32 * 1024 * 1024;

/**
 * The GitHub REST API as a skill source uses it: a ref's commit (revalidated with its ETag: a 304
 * costs no rate limit), the commit's recursive tree and raw file contents (both named by
 * commit or blob id, so fetched once and kept). Rate-limit headers are read on every answer:
 * a spent limit fails fast, without asking, until it resets.
 */
export class GitHubApi {
  #rate: RateLimit | undefined;
  #warnedFor = 0;

  constructor(
    private readonly settings: {
      readonly apiBaseUrl: string;
      readonly rawBaseUrl: string;
      readonly refTtlMs: number;
      readonly maxFileBytes: number;
      readonly documents: RemoteDocuments;
      readonly logger: Logger;
      readonly authenticated: boolean;
    },
  ) {}

  get rateLimit(): RateLimit | undefined {
    return this.#rate;
  }

  /** For the HttpClient: refuse an API request while the limit is known to be spent. */
  guard = (url: string): void => {
    const rate = this.#rate;
    if (url.startsWith(this.settings.apiBaseUrl) && rate && rate.remaining === 0 && rate.reset * 1000 > Date.now()) {
      throw new HttpError(this.#spent(rate), false, 403);
    }
  };

  /** For the HttpClient: note the rate limit of every API answer; a 403/429 for it is final. */
  observe = (url: string, status: number, headers: Headers): void => {
    if (!url.startsWith(this.settings.apiBaseUrl)) return;
    const limit = Number(headers.get("x-ratelimit-limit"));
    const remaining = Number(headers.get("x-ratelimit-remaining"));
    const reset = Number(headers.get("x-ratelimit-reset"));
    if (headers.has("x-ratelimit-remaining") && [limit, remaining, reset].every(Number.isFinite)) {
      this.#rate = { limit, remaining, reset };
      if (remaining < limit / 10 && this.#warnedFor !== reset) {
        this.#warnedFor = reset;
        this.settings.logger.warn(
          `GitHub API: ${remaining} of ${limit} requests left until ${new Date(reset * 1000).toISOString()}`,
        );
      }
    }
    if ((status === 403 || status === 429) && (this.#rate?.remaining === 0 || headers.has("retry-after"))) {
      throw new HttpError(this.#spent(this.#rate), false, status);
    }
  };

  #spent(rate: RateLimit | undefined): string {
    const until = rate ? ` until ${new Date(rate.reset * 1000).toISOString()}` : "";
    const hint = this.settings.authenticated ? "" : "; set GITHUB_TOKEN for a higher limit";
    return `the GitHub API rate limit${rate ? ` (${rate.limit} requests an hour)` : ""} is spent${until}${hint}`;
  }

  /** The commit `ref` names now (the default branch's when absent): a full commit id is taken as is. */
  async commit(
    owner: string,
    repo: string,
    ref: string | undefined,
    signal?: AbortSignal,
    ttlMs = this.settings.refTtlMs,
  ): Promise<FetchedDocument & { commit: string }> {
    if (ref !== undefined && COMMIT.test(ref))
      return { commit: ref.toLowerCase(), body: new Uint8Array(), stale: false };
    const url = `${this.#repoUrl(owner, repo)}/commits/${encodeURIComponent(ref ?? "HEAD")}`;
    const fetched = await this.settings.documents.revalidated(url, ttlMs, {
      maxBytes: 1024,
      headers: { accept: "application/vnd.github.sha" },
      signal,
    });
    const commit = new TextDecoder().decode(fetched.body).trim().toLowerCase();
    if (!COMMIT.test(commit))
      throw new Error(`GitHub did not answer a commit id for ${owner}/${repo}#${ref ?? "HEAD"}`);
    return { ...fetched, commit };
  }

  /** Every blob and folder of the commit. */
  async tree(owner: string, repo: string, commit: string, signal?: AbortSignal): Promise<GitHubTree> {
    const url = `${this.#repoUrl(owner, repo)}/git/trees/${commit}?recursive=1`;
    const body = await this.settings.documents.immutable(`tree:${owner}/${repo}@${commit}`, url, {
      maxBytes: MAX_TREE_BYTES,
      headers: { accept: "application/vnd.github+json" },
      signal,
    });
    let data: unknown;
    try {
      data = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw new Error(`the tree of ${owner}/${repo}@${commit.slice(0, 12)} is not JSON`);
    }
    if (!isRecord(data) || !Array.isArray(data.tree))
      throw new Error(`the tree of ${owner}/${repo}@${commit.slice(0, 12)} has no entries`);
    const entries = data.tree.filter(
      (entry): entry is GitHubTreeEntry =>
        isRecord(entry) &&
        typeof entry.path === "string" &&
        typeof entry.type === "string" &&
        typeof entry.sha === "string" &&
        typeof entry.mode === "string",
    );
    return { entries, truncated: data.truncated === true };
  }

  /** A file's bytes at a commit, kept under its blob id. */
  blob(owner: string, repo: string, commit: string, entry: GitHubTreeEntry, signal?: AbortSignal): Promise<Uint8Array> {
    const path = entry.path.split("/").map(encodeURIComponent).join("/");
    const url = `${this.settings.rawBaseUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${commit}/${path}`;
    return this.settings.documents.immutable(`blob:${entry.sha}`, url, {
      maxBytes: this.settings.maxFileBytes,
      signal,
    });
  }

  #repoUrl(owner: string, repo: string): string {
    return `${this.settings.apiBaseUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }
}
