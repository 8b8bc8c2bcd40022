import { createMcpHandler, isJsonContentType, isLegacyRequest, type McpServer } from "@modelcontextprotocol/server";
import { systemClock, type Clock, type ClockTimer } from "../../../kernel/clock.js";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { CatalogFor, ServerBuildOptions } from "../../../kernel/types.js";
import { readBody } from "./body.js";
import { createOAuthGate, type Caller, type OAuthGate } from "./auth/gate.js";
import { identityIn } from "./auth/verifier.js";
import { createAuthGuard, createHostGuard, tokenMatcher, type Refusal } from "./guard.js";
import { leavesNoClientState, serveLegacyOnce } from "./legacy-once.js";
import { checkWriteTools, type HttpOptions } from "./options.js";
import { INVALID_PARAMS, paramsProblem } from "./params.js";
import { ListChangedRelay } from "./relay.js";
import { ServerPool } from "./server-pool.js";
import {
  json,
  jsonRpcError,
  mcpError,
  methodNotServed,
  onSettled,
  restError,
  UNSERVED_METHODS,
  withBody,
} from "./respond.js";
import type { HttpRoute, RequestHead, RouteRequest, SignInGate } from "./routes.js";
import { SessionTable } from "./sessions.js";
import { WorkLimiter } from "./work-limit.js";

/** What /readyz reports: ready when every check is; each check says its state in a word. */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
}

/** Builds the McpServer for one 2026-07-28 request, or one 2025-11-25 session or request, for its caller. */
export type ServerFactory = (caller: Caller) => McpServer | Promise<McpServer>;

/** Idle 2026-07-28 servers kept for reuse: about the connections a busy replica serves at once. */
const MAX_IDLE_SERVERS = 64;

export interface HttpAppParts {
  /** The kernel's server factory (`createMcpServer`). */
  readonly buildServer: (options: ServerBuildOptions) => McpServer | Promise<McpServer>;
  /** What servers built now are built from: pooled servers of another edition are let go. */
  readonly edition: () => string;
  /** Answers are for one caller (a token, or sources only some callers see): cached as private. */
  readonly personal: boolean;
  readonly logger: Logger;
  readonly options: HttpAppOptions;
  /** Endpoints other plugins add (the REST API). */
  readonly routes?: readonly HttpRoute[];
  /** The catalog as a caller may see it: what a route gets for that caller (the kernel's `catalogFor`). */
  readonly catalogFor: CatalogFor;
  readonly readiness?: () => Readiness | Promise<Readiness>;
  /** What session expiry, body timeouts and shutdown's grace are timed by: the system clock unless a test hands one. */
  readonly clock?: Clock;
}

export type HttpAppOptions = Pick<
  HttpOptions,
  | "path"
  | "stateless"
  | "authToken"
  | "oauth"
  | "allowedOrigins"
  | "maxBodyBytes"
  | "bodyTimeoutMs"
  | "maxBatchSize"
  | "maxAnswerBytes"
  | "maxSessions"
  | "maxSessionsPerClient"
  | "sessionIdleMs"
  | "replicaId"
  | "writeTools"
  | "maxWorkInFlight"
  | "maxWorkPerClient"
  | "maxWorkQueuedPerClient"
  | "maxWorkShare"
> & {
  /** Host names Host and Origin may name; undefined checks nothing (see defaultAllowedHosts). */
  readonly allowedHosts: readonly string[] | undefined;
  /** The port Host and Origin must name too, once the server listens; unset: any port. */
  readonly boundPort?: () => number | undefined;
  /** A prefix the app is mounted under (`/skills`): stripped before routing, others get 404. */
  readonly basePath?: string;
};

/**
 * A request its server has not made a web Request of (node:http's GET and HEAD): what a route
 * reads of it, and the whole Request, built once when something asks for it.
 */
export interface LazyRequest extends RouteRequest {
  /** Whether its client has gone away; reading `signal` makes an AbortSignal of it. */
  readonly aborted: boolean;
  toRequest(): Promise<Request>;
}

/** The web-standard HTTP face of a kernel: MCP, health checks and contributed routes. */
export interface HttpApp {
  /**
   * Answer one request; `client` is the peer's address, which bounds its sessions, and
   * `connection` names its connection among the address's (its port), which shares work within it.
   */
  fetch(request: Request, client?: string, connection?: string): Promise<Response>;
  /**
   * As fetch, but an answer of bytes held in memory comes without its body (heldBytesOf gives
   * them): for a server that writes them itself, as Node's listener does. A LazyRequest is made
   * a Request only when what answers it needs one (MCP, a sign-in page, a route reading the body).
   */
  fetchHeld(request: Request | LazyRequest, client?: string, connection?: string): Promise<Response>;
  /**
   * Refuse new requests (503), wait up to `graceMs` for those in flight, then close every
   * session and subscription stream.
   */
  close(graceMs: number): Promise<void>;
}

const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

/**
 * Build the request handler every runtime serves (node:http through an adapter, Bun.serve,
 * Deno.serve, or an app that embeds it). Order matters: Host/Origin and auth are checked before
 * anything else, so a refused request never creates a session or reads a body.
 *
 * MCP is served in both revisions on one path, told apart by the SDK's own isLegacyRequest:
 * 2026-07-28 through the SDK's createMcpHandler (no session: each request is served by an
 * instance of its own, so any replica answers any request), 2025-11-25 in sessions (or, with
 * `stateless`, one request at a time).
 */
export function createHttpApp({
  buildServer,
  edition,
  personal,
  logger,
  options,
  routes = [],
  catalogFor,
  readiness,
  clock = systemClock,
}: HttpAppParts): HttpApp {
  checkWriteTools(options);
  const mayWrite = writePermission(options);
  const createServer: ServerFactory = (caller) =>
    buildServer({ authenticated: personal, identity: caller.identity, remote: { writes: mayWrite(caller) } });
  const hostGuard = createHostGuard(options.allowedHosts, options.allowedOrigins, options.boundPort);
  const authGuard = createAuthGuard(options.authToken);
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const oauth = options.oauth && createOAuthGate(options.oauth, `${basePath}${options.path}`, logger);
  const signInGate = signInGateOf(options, oauth);
  const sessions = options.stateless
    ? undefined
    : new SessionTable(
        createServer,
        {
          replicaId: options.replicaId,
          maxSessions: options.maxSessions,
          maxSessionsPerClient: options.maxSessionsPerClient,
          idleMs: options.sessionIdleMs,
          maxAnswerBytes: options.maxAnswerBytes,
        },
        logger,
        clock,
      );
  const work = new WorkLimiter(options, clock);
  const pooledServer = (lifetime: AbortSignal) =>
    buildServer({ authenticated: personal, lifetime, remote: { writes: mayWrite({}) } });
  const pool = new ServerPool(pooledServer, edition, MAX_IDLE_SERVERS);
  // `--stateless` 2025-11-25 requests get pooled servers of their own, so no server ever carries
  // state between the two revisions; only requests that leave none behind are answered by one.
  const legacyPool = new ServerPool(pooledServer, edition, MAX_IDLE_SERVERS);
  const legacyServer = (caller: Caller, parsed: unknown) =>
    caller.identity === undefined && leavesNoClientState(parsed) ? legacyPool.acquire() : createServer(caller);
  // The caller's token reaches the factory as the SDK's authInfo, which carries its identity: a
  // signed-in caller's server is built for them, callers with no identity share pooled servers.
  const modern = createMcpHandler(
    (context) => {
      const identity = identityIn(context.authInfo);
      return identity === undefined ? pool.acquire() : createServer({ authInfo: context.authInfo, identity });
    },
    {
      legacy: "reject",
      maxRequestBodySize: options.maxBodyBytes,
      // Refusals are the client's to read in the answer; the log keeps them at debug.
      onerror: (error) => logger.debug(`mcp: ${errorMessage(error)}`),
    },
  );
  // Made on the first MCP request, not at start, so a server that is never asked builds nothing.
  let relay: Promise<ListChangedRelay | undefined> | undefined;
  const startRelay = () =>
    (relay ??= (async () => ListChangedRelay.connect(await createServer({}), modern.notify))().catch(
      (error: unknown) => {
        logger.error(`list_changed will not reach subscriptions/listen streams: ${errorMessage(error)}`);
        return undefined;
      },
    ));

  let closing = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  /** Count one request as work in flight until the returned function is called (once). */
  const track = () => {
    inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight--;
      if (inFlight === 0) drained?.();
    };
  };

  /** The MCP endpoint: the body read and checked once here, then the revision's own path. */
  const serveMcp = async (
    request: Request,
    client: string,
    connection: string,
    untrack: () => void,
    caller: Caller,
  ): Promise<Response> => {
    void startRelay();
    let parsed: unknown;
    if (request.method === "POST") {
      if (!isJsonContentType(request.headers.get("content-type"))) {
        return jsonRpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      }
      const text = await readBody(request, options.maxBodyBytes, options.bodyTimeoutMs, clock);
      if (typeof text !== "string")
        return jsonRpcError(text.status, text.status === 400 ? -32700 : -32000, text.message);
      try {
        parsed = JSON.parse(text);
      } catch {
        return jsonRpcError(400, -32700, "Parse error: the request body is not JSON");
      }
      if (Array.isArray(parsed) && parsed.length === 0)
        return jsonRpcError(400, -32600, "Invalid Request: an empty batch");
      if (Array.isArray(parsed) && parsed.length > options.maxBatchSize) {
        return jsonRpcError(400, -32600, `Invalid Request: a batch may hold at most ${options.maxBatchSize} messages`);
      }
      // An answer echoes the id it answers: one that is neither a string nor an integer is refused
      // here, so that no answer carries it back.
      if (
        (Array.isArray(parsed) ? parsed : [parsed]).some((message) => isRecord(message) && !isRequestId(message.id))
      ) {
        return jsonRpcError(400, -32600, "Invalid Request: an id is a string or an integer");
      }
    }
    const serve = async (): Promise<Response> => {
      if (await isLegacyRequest(request, parsed, { maxRequestBodySize: options.maxBodyBytes })) {
        if (!sessions)
          return serveLegacyOnce((who) => legacyServer(who, parsed), request, parsed, options.maxAnswerBytes, caller);
        return sessions.handle(request, parsed, client, caller);
      }
      const response = await modern.fetch(request, { parsedBody: parsed, authInfo: caller.authInfo });
      const problem = paramsProblem(parsed);
      return problem === undefined ? response : withParamsError(response, problem);
    };
    // A subscription stream stays open for as long as its client listens: not work shutdown waits for.
    if (isRecord(parsed) && parsed.method === "subscriptions/listen") {
      untrack();
      return serve();
    }
    // Requests wait for their client's turn; notifications (a cancellation) and streams never do.
    if (!asksForAnswer(parsed)) return serve();
    return work.run(laneOf(caller, client), partOf(request, connection), request.signal, serve);
  };

  const route = async (
    request: Request | LazyRequest,
    path: string,
    client: string,
    connection: string,
    untrack: () => void,
  ): Promise<Response> => {
    const isMcp = path === options.path;
    const refuse = (refusal: Refusal) =>
      (isMcp ? mcpError : restError)(refusal.status, refusal.message, refusal.headers);
    if (path === "/healthz") return json(closing ? 503 : 200, { status: closing ? "stopping" : "ok" });
    if (path === "/readyz") {
      const report = readiness ? await readiness() : { ready: true, checks: {} };
      const ready = report.ready && !closing;
      return json(ready ? 200 : 503, {
        status: ready ? "ready" : closing ? "stopping" : "not ready",
        checks: report.checks,
      });
    }
    const hostRefusal = hostGuard(request);
    if (hostRefusal) return refuse(hostRefusal);
    // The protected resource metadata is how a client without a token finds the issuer.
    const metadata = oauth?.metadata(request, path);
    if (metadata) return metadata;
    // A page's own session stands in for the bearer header only on a route that asks for it, never on MCP.
    const contributed = isMcp ? undefined : routes.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
    let caller: Caller = {};
    // A route that signs its caller in gets the Request its signIn was given (a page's session is kept by it).
    let handed: RouteRequest = request;
    if (contributed?.signIn && signInGate && !request.headers.has("authorization")) {
      const signingIn = await wholeRequest(request);
      handed = signingIn;
      const signedIn = await contributed.signIn(signingIn, path, signInGate(request));
      if (signedIn instanceof Response) return signedIn;
      caller = signedIn;
    } else if (oauth) {
      const checked = await oauth.authenticate(request);
      if (checked instanceof Response) return checked;
      caller = checked;
    } else {
      const refusal = authGuard(request);
      if (refusal) return refuse(refusal);
    }
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > options.maxBodyBytes)
      return refuse({ status: 413, message: `request body over ${options.maxBodyBytes} bytes` });
    if (isMcp) return serveMcp(await wholeRequest(request), client, connection, untrack, caller);
    if (contributed) {
      const gone = request instanceof Request ? request.signal : request;
      return work.run(laneOf(caller, client), partOf(request, connection), gone, async () =>
        contributed.handle(handed, path, { ...caller, catalog: catalogFor(caller.identity) }),
      );
    }
    return restError(404, `nothing at ${path}`);
  };

  const fetch = async (request: Request | LazyRequest, client = "unknown", connection = ""): Promise<Response> => {
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
    if (UNSERVED_METHODS.has(request.method)) return methodNotServed(request.method);
    if (closing && !HEALTH_PATHS.has(path))
      return restError(503, "the server is shutting down", { connection: "close" });
    // An open event stream (GET on MCP) is not work in flight: shutdown ends it by closing sessions.
    const untrack = request.method === "GET" && path === options.path ? () => undefined : track();
    try {
      return onSettled(await route(request, path, client, connection, untrack), untrack);
    } catch (error) {
      untrack();
      logger.error(`${request.method} ${path} failed: ${errorMessage(error)}`);
      if (error instanceof Error && error.stack) logger.debug(error.stack);
      return restError(500, "internal error; the server's log has the details");
    }
  };

  return {
    fetch: async (request, client, connection) => withBody(await fetch(request, client, connection)),
    fetchHeld: fetch,
    async close(graceMs) {
      closing = true;
      if (inFlight > 0) {
        logger.debug(`waiting for ${inFlight} request(s) in flight`);
        let timer: ClockTimer;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = clock.setTimeout(resolve, graceMs);
        });
        clock.clearTimeout(timer);
        if (inFlight > 0) logger.warn(`${inFlight} request(s) still in flight after ${graceMs} ms; closing anyway`);
      }
      await sessions?.closeAll();
      await modern.close();
      pool.close();
      legacyPool.close();
      const connected = await relay;
      await connected?.close();
    },
  };
}

/** What a route with `signIn` gets, per request: the mode and the token check of the bearer gate; none without auth. */
function signInGateOf(
  options: HttpAppOptions,
  oauth: OAuthGate | undefined,
): ((request: RequestHead) => SignInGate) | undefined {
  if (oauth && options.oauth) {
    const { issuer, requiredScopes, audience } = options.oauth;
    return (request) => ({
      mode: "oauth",
      issuer,
      requiredScopes,
      audience,
      check: (token) => oauth.check(token, request),
    });
  }
  if (options.authToken === undefined) return undefined;
  const matches = tokenMatcher(options.authToken);
  return () => ({
    mode: "token",
    check: async (token) => (matches(token) ? { caller: {} } : { status: 401, refused: "invalid token" }),
  });
}

/**
 * Whether a caller gets the tools that write on the server: only with `writeTools` set, and then
 * a signed-in caller whose token holds its scope, or (static token) anyone past the token check.
 */
function writePermission(options: HttpAppOptions): (caller: Caller) => boolean {
  const { writeTools, oauth, authToken } = options;
  if (writeTools === undefined) return () => false;
  if (oauth !== undefined) return ({ identity }) => identity?.scopes.includes(writeTools.scope) === true;
  return () => authToken !== undefined;
}

/**
 * The SDK answers a request whose params do not fit its method -32603 with a validation dump;
 * the same answer as -32602 with the first problem on one line. Only an in-band error is
 * rewritten: anything the SDK refused before (headers, envelope) stays as it answered.
 */
async function withParamsError(response: Response, problem: string): Promise<Response> {
  if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("application/json")) return response;
  const answer = (await response.clone().json()) as { id?: unknown; error?: { code?: unknown } };
  if (answer.error?.code !== -32603) return response;
  return json(200, { jsonrpc: "2.0", id: answer.id ?? null, error: { code: INVALID_PARAMS, message: problem } });
}

/** The web Request of a request: itself, or the one a LazyRequest builds once. */
function wholeRequest(request: Request | LazyRequest): Promise<Request> {
  return request instanceof Request ? Promise.resolve(request) : request.toRequest();
}

/** Whose turn a request waits for: a signed-in caller's own, else its address's. */
function laneOf(caller: Caller, client: string): string {
  const subject = caller.identity?.subject;
  return subject === undefined ? `address ${client}` : `subject ${subject}`;
}

/**
 * Which part of its client a request is, for sharing work within the client: its MCP session,
 * else its connection. Another address is never read from a header (X-Forwarded-For): any caller
 * could write one.
 */
function partOf(request: RequestHead, connection: string): string {
  const session = request.headers.get("mcp-session-id");
  return session === null ? `connection ${connection}` : `session ${session.slice(0, 128)}`;
}

/** True when a body holds a request (a message with a method and an id): work to be answered. */
function asksForAnswer(parsed: unknown): boolean {
  return (Array.isArray(parsed) ? parsed : [parsed]).some(
    (message) => isRecord(message) && typeof message.method === "string" && message.id !== undefined,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON-RPC's id: absent (a notification), null (an error about no request), a string or an integer. */
function isRequestId(id: unknown): boolean {
  return id === undefined || id === null || typeof id === "string" || Number.isSafeInteger(id);
}
