import type { Cache } from "../../../kernel/cache.js";
import type { Logger } from "../../../kernel/logger.js";
import { RemoteDocuments } from "../../../remote/documents.js";
import { HttpClient } from "../../../remote/http.js";
import { GitHubApi } from "./api.js";

export interface GitHubClientSettings {
  readonly name: string;
  readonly token?: string;
  readonly apiBaseUrl: string;
  readonly rawBaseUrl: string;
  readonly refTtlMs: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly concurrency: number;
  readonly maxTotalBytes: number;
  readonly maxFileBytes: number;
  readonly cache: Cache;
  readonly logger: Logger;
}

/** The GitHub API over an HTTP client of its own, whose every answer updates the API's rate limit. */
export function createGitHubClient(settings: GitHubClientSettings): { api: GitHubApi; http: HttpClient } {
  // The client reports to the API object and the API object fetches through the client.
  const hooks: { api?: GitHubApi } = {};
  const http = new HttpClient({
    name: settings.name,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    concurrency: settings.concurrency,
    maxTotalBytes: settings.maxTotalBytes,
    headers: {
      "x-github-api-version": "2022-11-28",
      ...(settings.token ? { authorization: `Bearer ${settings.token}` } : {}),
    },
    guard: (url) => hooks.api?.guard(url),
    observe: (url, status, headers) => hooks.api?.observe(url, status, headers),
  });
  const api = new GitHubApi({
    apiBaseUrl: settings.apiBaseUrl.replace(/\/+$/, ""),
    rawBaseUrl: settings.rawBaseUrl.replace(/\/+$/, ""),
    refTtlMs: settings.refTtlMs,
    maxFileBytes: settings.maxFileBytes,
    documents: new RemoteDocuments(http, settings.cache),
    logger: settings.logger,
    authenticated: settings.token !== undefined,
  });
  hooks.api = api;
  return { api, http };
}
