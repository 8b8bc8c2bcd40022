import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded answer. */
export interface FixtureResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Sent as ETag; a request with a matching If-None-Match gets a 304. */
  readonly etag?: string;
  /** Wait this long before answering (a slow server). */
  readonly delayMs?: number;
  /** Declare the whole length, send this many bytes, then drop the connection (a cut body). */
  readonly truncateTo?: number;
}

/** An answer, or a function choosing one per request (undefined: 404). */
export type Fixture = FixtureResponse | ((request: IncomingMessage, count: number) => FixtureResponse | undefined);

export interface SeenRequest {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  /** What was answered. */
  status: number;
}

export interface FixtureServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Requests being answered right now, and the most there ever were at once. */
  readonly inFlight: { now: number; max: number };
  /** Replace or add the answer for a path (with its query string, if any). */
  set(path: string, fixture: Fixture): void;
  /** Stop listening and drop open connections; the port is free afterwards. */
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback serving recorded answers by path: the remote sources' tests talk
 * to it exactly as they would to GitHub or a catalog host, 304s, 403s, 500s, slow and cut answers
 * included.
 */
export async function startFixtureServer(routes: Record<string, Fixture> = {}): Promise<FixtureServer> {
  const table = new Map<string, Fixture>(Object.entries(routes));
  const counts = new Map<string, number>();
  const requests: SeenRequest[] = [];
  const inFlight = { now: 0, max: 0 };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "/";
    const seen: SeenRequest = { path, headers: request.headers, status: 0 };
    requests.push(seen);
    const count = (counts.get(path) ?? 0) + 1;
    counts.set(path, count);
    const fixture = table.get(path);
    const answer = typeof fixture === "function" ? fixture(request, count) : fixture;
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    const finish = () => inFlight.now--;
    const send = () => {
      if (!answer) {
        seen.status = 404;
        response.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not Found"}', finish);
        return;
      }
      const headers: Record<string, string> = { ...answer.headers };
      if (answer.etag) headers.etag = answer.etag;
      if (answer.etag && request.headers["if-none-match"] === answer.etag) {
        seen.status = 304;
        response.writeHead(304, headers).end(finish);
        return;
      }
      const body =
        typeof answer.body === "string" ? Buffer.from(answer.body) : Buffer.from(answer.body ?? new Uint8Array());
      seen.status = answer.status ?? 200;
      response.writeHead(seen.status, { ...headers, "content-length": String(body.length) });
      if (answer.truncateTo !== undefined) {
        response.write(body.subarray(0, answer.truncateTo), () => {
          finish();
          response.socket?.destroy();
        });
        return;
      }
      response.end(body, finish);
    };
    if (answer?.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inFlight,
    set: (path, fixture) => table.set(path, fixture),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Git's id of a file's content, as GitHub's tree API reports it. */
export function blobSha(content: string): string {
  const bytes = Buffer.from(content);
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

export interface GitHubRepoFixture {
  readonly owner: string;
  readonly repo: string;
  readonly commit: string;
  /** The default branch's name (HEAD resolves to it too). */
  readonly branch?: string;
  /** Path → content. Symlinks and submodules appear with their own modes. */
  readonly files: Readonly<Record<string, string>>;
  readonly symlinks?: Readonly<Record<string, string>>;
  readonly submodules?: readonly string[];
  /** Rate-limit headers on every API answer. */
  readonly rate?: { readonly limit: number; readonly remaining: number; readonly reset: number };
}

/**
 * The routes GitHub would answer for one repository at one commit, in the real APIs' shapes: the
 * commits endpoint with the `application/vnd.github.sha` media type (plain sha, ETag), the
 * recursive git tree (`{ sha, url, tree: [{ path, mode, type, sha, size, url }], truncated }`), and
 * raw.githubusercontent.com contents. The API lives under /api, raw contents under /raw.
 */
export function githubRoutes(fixture: GitHubRepoFixture): Record<string, Fixture> {
  const { owner, repo, commit } = fixture;
  const rate = fixture.rate ?? { limit: 60, remaining: 59, reset: Math.floor(Date.now() / 1000) + 3600 };
  const apiHeaders = {
    "x-ratelimit-limit": String(rate.limit),
    "x-ratelimit-remaining": String(rate.remaining),
    "x-ratelimit-reset": String(rate.reset),
    "x-ratelimit-used": String(rate.limit - rate.remaining),
    "x-ratelimit-resource": "core",
    "x-github-api-version-selected": "2022-11-28",
  };
  const folders = new Set<string>();
  const tree: Record<string, unknown>[] = [];
  const add = (path: string, mode: string, type: string, sha: string, size?: number) => {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
    tree.push({
      path,
      mode,
      type,
      sha,
      ...(size === undefined ? {} : { size }),
      url: `https://api.github.com/repos/${owner}/${repo}/git/blobs/${sha}`,
    });
  };
  for (const [path, content] of Object.entries(fixture.files))
    add(path, "100644", "blob", blobSha(content), Buffer.byteLength(content));
  for (const [path, target] of Object.entries(fixture.symlinks ?? {}))
    add(path, "120000", "blob", blobSha(target), Buffer.byteLength(target));
  for (const path of fixture.submodules ?? []) add(path, "160000", "commit", "1".repeat(40));
  for (const folder of folders)
    tree.push({ path: folder, mode: "040000", type: "tree", sha: blobSha(folder), url: "https://api.github.com/" });
  tree.sort((a, b) => ((a.path as string) < (b.path as string) ? -1 : 1));

  const routes: Record<string, Fixture> = {};
  const commitAnswer: FixtureResponse = {
    body: commit,
    etag: `"${commit.slice(0, 20)}"`,
    headers: { ...apiHeaders, "content-type": "application/vnd.github.sha; charset=utf-8" },
  };
  for (const ref of ["HEAD", fixture.branch ?? "main"])
    routes[`/api/repos/${owner}/${repo}/commits/${ref}`] = commitAnswer;
  routes[`/api/repos/${owner}/${repo}/git/trees/${commit}?recursive=1`] = {
    body: JSON.stringify({
      sha: blobSha(commit),
      url: `https://api.github.com/repos/${owner}/${repo}/git/trees/${commit}`,
      tree,
      truncated: false,
    }),
    headers: { ...apiHeaders, "content-type": "application/json; charset=utf-8" },
  };
  for (const [path, content] of Object.entries(fixture.files)) {
    routes[`/raw/${owner}/${repo}/${commit}/${path.split("/").map(encodeURIComponent).join("/")}`] = {
      body: content,
      headers: { "content-type": "text/plain; charset=utf-8" },
    };
  }
  return routes;
}
