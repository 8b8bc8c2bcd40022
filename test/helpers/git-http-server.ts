import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface GitHttpServer {
  /** http://127.0.0.1:PORT, or https:// when served with a certificate */
  readonly origin: string;
  /** The Authorization header of every request, in order ("" when none was sent). */
  readonly authorizations: string[];
  close(): Promise<void>;
}

/**
 * The bare repositories under `root` served over smart HTTP by git's own CGI (git http-backend)
 * on loopback; with `login`, behind Basic auth: a request without `username:password` gets 401,
 * as a private repository's host answers. Over HTTPS when `tls` gives a key and certificate (git,
 * like the lifecycle commands, allows no plain http by default).
 */
export async function startGitHttpServer(
  root: string,
  login: { username: string; password: string } | undefined,
  tls?: { key: string; cert: string },
): Promise<GitHttpServer> {
  const expected = login && `Basic ${Buffer.from(`${login.username}:${login.password}`).toString("base64")}`;
  const authorizations: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    authorizations.push(req.headers.authorization ?? "");
    if (expected !== undefined && req.headers.authorization !== expected) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
        ...(login && { REMOTE_USER: login.username }),
      },
      stdio: ["pipe", "pipe", "ignore"],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let body = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (body) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      body = true;
      res.write(head.subarray(end + 4));
    });
    cgi.on("close", () => res.end());
  };
  const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
