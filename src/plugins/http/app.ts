import { errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import type { McpServerFactory } from "../../kernel/types.js";
import { createAuthGuard, createHostGuard, type Refusal } from "./guard.js";
import type { HttpOptions } from "./options.js";
import { json, mcpError, onSettled, restError, toResponse, type Answer } from "./respond.js";
import type { HttpRoute } from "./routes.js";
import { SessionTable } from "./sessions.js";
import { StatelessMcp } from "./stateless.js";

/** What /readyz reports: ready when every check is; each check says its state in a word. */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
}

export interface HttpAppParts {
  readonly createServer: McpServerFactory;
  readonly logger: Logger;
  readonly options: HttpAppOptions;
  /** Endpoints other plugins add (the REST API). */
  readonly routes?: readonly HttpRoute[];
  readonly readiness?: () => Readiness | Promise<Readiness>;
}

export type HttpAppOptions = Pick<
  HttpOptions,
  "path" | "stateless" | "authToken" | "allowedOrigins" | "maxBodyBytes" | "maxSessions" | "sessionIdleMs" | "replicaId"
> & {
  /** Host names Host and Origin may name; undefined checks nothing (see defaultAllowedHosts). */
  readonly allowedHosts: readonly string[] | undefined;
  /** A prefix the app is mounted under (`/skills`): stripped before routing, others get 404. */
  readonly basePath?: string;
};

/** The web-standard HTTP face of a kernel: MCP, health checks and contributed routes. */
export interface HttpApp {
  fetch(request: Request): Promise<Response>;
  /** The same, with answers built whole left as text for a server that can write them directly (node:http). */
  answer(request: Request): Promise<Answer>;
  /**
   * Refuse new requests (503), wait up to `graceMs` for those in flight, then close every
   * session, which ends their event streams.
   */
  close(graceMs: number): Promise<void>;
}

const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

/**
 * Build the request handler every runtime serves (node:http through an adapter, Bun.serve,
 * Deno.serve, or an app that embeds it). Order matters: Host/Origin and auth are checked before
 * anything else, so a refused request never creates a session or reads a body.
 */
export function createHttpApp({ createServer, logger, options, routes = [], readiness }: HttpAppParts): HttpApp {
  const hostGuard = createHostGuard(options.allowedHosts, options.allowedOrigins);
  const authGuard = createAuthGuard(options.authToken);
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const sessions = options.stateless
    ? undefined
    : new SessionTable(
        createServer,
        { replicaId: options.replicaId, maxSessions: options.maxSessions, idleMs: options.sessionIdleMs, maxBodyBytes: options.maxBodyBytes },
        logger,
      );

  // Stateless: one server for every request, connected on the first (see StatelessMcp).
  let stateless: Promise<StatelessMcp> | undefined;
  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const finish = () => {
    inFlight--;
    if (inFlight === 0) drained?.();
  };

  const serveMcp = async (request: Request, url: URL): Promise<Answer> => {
    if (sessions) return sessions.handle(request);
    if (request.method !== "POST") return mcpError(405, "Method not allowed: this server is stateless; POST each request", { allow: "POST" });
    // A failed connect is not kept: the next request tries again instead of failing forever.
    stateless ??= StatelessMcp.connect(createServer(), options.maxBodyBytes).catch((error: unknown) => {
      stateless = undefined;
      throw error;
    });
    return (await stateless).handle(request, url);
  };

  const route = async (request: Request, url: URL, path: string): Promise<Answer> => {
    const isMcp = path === options.path;
    const refuse = (refusal: Refusal) => (isMcp ? mcpError : restError)(refusal.status, refusal.message, refusal.headers);
    if (path === "/healthz") return json(closing ? 503 : 200, { status: closing ? "stopping" : "ok" });
    if (path === "/readyz") {
      const report = readiness ? await readiness() : { ready: true, checks: {} };
      const ready = report.ready && !closing;
      return json(ready ? 200 : 503, { status: ready ? "ready" : closing ? "stopping" : "not ready", checks: report.checks });
    }
    const refusal = hostGuard(request, url) ?? authGuard(request);
    if (refusal) return refuse(refusal);
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > options.maxBodyBytes) return refuse({ status: 413, message: `request body over ${options.maxBodyBytes} bytes` });
    if (isMcp) return serveMcp(request, url);
    const contributed = routes.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
    if (contributed) return contributed.handle(request, path);
    return restError(404, `nothing at ${path}`);
  };

  const answer = async (request: Request): Promise<Answer> => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return restError(400, "malformed request URL");
    }
    if (basePath !== "" && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
      return restError(404, `nothing at ${url.pathname}`);
    }
    const path = url.pathname.slice(basePath.length) || "/";
    if (closing && !HEALTH_PATHS.has(path)) return restError(503, "the server is shutting down", { connection: "close" });
    // An open event stream (GET on MCP) is not work in flight: shutdown ends it by closing sessions.
    const counted = !(request.method === "GET" && path === options.path);
    if (counted) inFlight++;
    try {
      const response = await route(request, url, path);
      return counted ? onSettled(response, finish) : response;
    } catch (error) {
      if (counted) finish();
      logger.error(`${request.method} ${path} failed: ${errorMessage(error)}`);
      if (error instanceof Error && error.stack) logger.debug(error.stack);
      return restError(500, "internal error; the server's log has the details");
    }
  };

  return {
    answer,
    fetch: async (request) => toResponse(await answer(request)),
    async close(graceMs) {
      closing = true;
      if (inFlight > 0) {
        logger.debug(`waiting for ${inFlight} request(s) in flight`);
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = setTimeout(resolve, graceMs);
        });
        clearTimeout(timer);
        if (inFlight > 0) logger.warn(`${inFlight} request(s) still in flight after ${graceMs} ms; closing anyway`);
      }
      await sessions?.closeAll();
      await (await stateless)?.close();
    },
  };
}
