import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { Readable, pipeline } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { toNodeHandler as sdkNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { ConfigError, ERROR_CODES } from "../../../kernel/errors.js";
import type { HttpApp, LazyRequest } from "./app.js";
import { heldBytesOf, methodNotServed, restError, UNSERVED_METHODS, withBody } from "./respond.js";
import { originForm } from "./target.js";

/** A listening socket serving a fetch handler, whatever the runtime. */
export interface Listener {
  /** The port actually bound (differs from the one asked for when that was 0). */
  readonly port: number;
  /** Stop accepting connections; those open may finish. */
  stopAccepting(): void;
  /** Drop every connection still open; resolves once the socket is closed. */
  closeAll(): Promise<void>;
  /** Resolves when the listener has closed. */
  readonly closed: Promise<void>;
}

type AppFetch = HttpApp["fetch"];
type HeldFetch = HttpApp["fetchHeld"];

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
  requestIP(request: Request): { address: string; port: number } | null;
}
interface BunGlobal {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request, server: BunServer) => Promise<Response>;
    idleTimeout: number;
    maxRequestBodySize: number;
  }): BunServer;
}
interface DenoServer {
  readonly addr: { readonly port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoGlobal {
  serve(
    options: { hostname: string; port: number; onListen: () => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string; port: number } }) => Promise<Response>,
  ): DenoServer;
}

export interface ListenLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
}

/**
 * Listen with the runtime's own server: Bun.serve on Bun, Deno.serve on Deno, node:http (through
 * the MCP SDK's Node adapter, bar GET and HEAD) on Node. All three serve the same app, telling it
 * the peer's address.
 */
export async function listen(
  app: Pick<HttpApp, "fetch" | "fetchHeld">,
  host: string,
  port: number,
  limits: ListenLimits,
): Promise<Listener> {
  try {
    const bun = (globalThis as { Bun?: BunGlobal }).Bun;
    if (bun) return listenBun(bun, app.fetch, host, port, limits);
    const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
    if (deno) return await listenDeno(deno, app.fetch, host, port);
    return await listenNode(app.fetchHeld, host, port, limits);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    throw new ConfigError(
      `port ${port} on ${host} is taken by another program: choose another with --port N (--port 0 picks a free one), or the http plugin's port option`,
      ERROR_CODES.PORT_IN_USE,
    );
  }
}

/** Each runtime's way of saying so: Node's and Bun's code, Deno's error class. */
function isAddressInUse(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return code === "EADDRINUSE" || name === "AddrInUse";
}

/**
 * A node:http request handler for the app (the SDK's adapter), leaving the app's globals alone.
 * `fetch` is the app's fetchHeld: bytes it holds in memory are written as they are.
 */
export function toNodeHandler(fetch: HeldFetch, maxBodyBytes: number) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const send = (answer: Response) => {
      request.resume();
      return answer
        .text()
        .then((body) => void response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(body));
    };
    // Fetch's Request cannot hold these methods, so the adapter failed on them with a 500.
    if (UNSERVED_METHODS.has(request.method ?? "")) return send(methodNotServed(request.method!));
    const target = originForm(request.method ?? "GET", request.url ?? "/", request.headers.host);
    if (target instanceof Response) return send(target);
    request.url = target.path;
    if (target.host !== undefined) request.headers.host = target.host;
    const client = request.socket.remoteAddress ?? "unknown";
    const connection = String(request.socket.remotePort ?? "");
    if (request.method === "GET" || request.method === "HEAD")
      return answerRead(request, response, (head) => fetch(head, client, connection));
    return sdkNodeHandler(
      { fetch: async (webRequest) => withBody(await fetch(webRequest, client, connection)) },
      { maxRequestBodySize: maxBodyBytes },
    )(request, response);
  };
}

/**
 * GET and HEAD, which carry no body: held bytes are written straight to the socket; any other
 * body (an MCP event stream among them) is piped with backpressure and cancelled when its client
 * goes, whose going also aborts the request, as the SDK's adapter does.
 */
async function answerRead(
  request: IncomingMessage,
  response: ServerResponse,
  fetch: (request: LazyRequest) => Promise<Response>,
): Promise<void> {
  const head = new NodeRequestHead(request);
  response.on("close", () => {
    if (!response.writableFinished) head.leave();
  });
  let answer: Response;
  try {
    answer = await fetch(head);
  } catch {
    answer = restError(500, "internal error; the server's log has the details");
  }
  // Each Set-Cookie stays a header of its own (an object of entries would keep the last one).
  const cookies = answer.headers.getSetCookie();
  const headers: Record<string, string | string[]> = Object.fromEntries(answer.headers);
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  response.writeHead(answer.status, headers);
  const held = heldBytesOf(answer);
  if (held !== undefined || answer.body === null) return void response.end(held);
  pipeline(Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>), response, () => undefined);
}

/**
 * A GET or HEAD as node:http parsed it, read where it lies: the web Request the SDK's adapter
 * would make (the same URL, headers and signal) is built only if the app asks for it.
 */
class NodeRequestHead implements LazyRequest {
  readonly headers: Pick<Headers, "get" | "has">;
  #request: Promise<Request> | undefined;
  #url: string | undefined;
  #gone = false;
  // Made when first read: most answers need only to know whether the client left.
  #abort: AbortController | undefined;

  constructor(private readonly incoming: IncomingMessage) {
    this.headers = headersOf(incoming.headers);
  }

  get method(): string {
    return this.incoming.method ?? "GET";
  }

  /** As the adapter's toWebRequest names it (an empty Host included), parsed as a Request's is. */
  get url(): string {
    this.#url ??= new URL(`http://${this.incoming.headers.host ?? "localhost"}${this.incoming.url ?? "/"}`).href;
    return this.#url;
  }

  get aborted(): boolean {
    return this.#gone;
  }

  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      this.#abort = new AbortController();
      if (this.#gone) this.#abort.abort();
    }
    return this.#abort.signal;
  }

  /** Its client went away before the answer was sent in full. */
  leave(): void {
    this.#gone = true;
    this.#abort?.abort();
  }

  toRequest(): Promise<Request> {
    this.#request ??= toWebRequest(this.incoming, undefined, { signal: this.signal });
    return this.#request;
  }

  async text(): Promise<string> {
    return (await this.toRequest()).text();
  }

  async json(): Promise<unknown> {
    return (await this.toRequest()).json();
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.toRequest()).arrayBuffer();
  }
}

/**
 * Node's parsed headers read as the web Headers toWebRequest would fill from them give them: a
 * repeated header's values joined with ", ", each without the whitespace around it.
 */
function headersOf(headers: IncomingHttpHeaders): Pick<Headers, "get" | "has"> {
  const valueOf = (name: string) => {
    const key = name.toLowerCase();
    return Object.hasOwn(headers, key) ? headers[key] : undefined;
  };
  return {
    get(name) {
      const value = valueOf(name);
      if (value === undefined) return null;
      return Array.isArray(value) ? value.map(trimmed).join(", ") : trimmed(value);
    },
    has: (name) => valueOf(name) !== undefined,
  };
}

/** A header value without leading or trailing HTTP whitespace (tab, line feed, carriage return, space), as Headers keeps it. */
function trimmed(value: string): string {
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

async function listenNode(fetch: HeldFetch, host: string, port: number, limits: ListenLimits): Promise<Listener> {
  // A request (headers and body) must arrive whole within bodyTimeoutMs, checked every second;
  // answers are not timed, so event streams stay open for as long as their client listens.
  const server: Server = createServer({
    requestTimeout: limits.bodyTimeoutMs,
    headersTimeout: limits.bodyTimeoutMs,
    connectionsCheckingInterval: 1000,
  });
  const handler = toNodeHandler(fetch, limits.maxBodyBytes);
  server.on("request", (request: IncomingMessage, response: ServerResponse) => void handler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    stopAccepting() {
      server.close();
      server.closeIdleConnections();
    },
    async closeAll() {
      server.close();
      server.closeAllConnections();
      await closed;
    },
    closed,
  };
}

function listenBun(bun: BunGlobal, fetch: AppFetch, host: string, port: number, limits: ListenLimits): Listener {
  // idleTimeout (seconds) outlasts the SDK's 15 s keep-alive on event streams; the app times bodies.
  const server = bun.serve({
    hostname: host,
    port,
    fetch: (request, self) => {
      const peer = self.requestIP(request);
      return fetch(request, peer?.address ?? "unknown", String(peer?.port ?? ""));
    },
    idleTimeout: 60,
    maxRequestBodySize: limits.maxBodyBytes,
  });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  // biome-ignore lint/correctness/noUnusedVariables: read by `??=`, so the server is stopped once
  let stopping: Promise<void> | undefined;
  return {
    port: server.port,
    stopAccepting() {
      stopping ??= server.stop().then(resolveClosed);
    },
    async closeAll() {
      await server.stop(true);
      resolveClosed();
    },
    closed,
  };
}

async function listenDeno(deno: DenoGlobal, fetch: AppFetch, host: string, port: number): Promise<Listener> {
  let listening!: () => void;
  const started = new Promise<void>((resolve) => (listening = resolve));
  const server = deno.serve({ hostname: host, port, onListen: () => listening() }, (request, info) =>
    fetch(request, info.remoteAddr.hostname, String(info.remoteAddr.port)),
  );
  await started;
  // biome-ignore lint/correctness/noUnusedVariables: read by `??=`, so the server is stopped once
  let stopping: Promise<void> | undefined;
  return {
    port: server.addr.port,
    stopAccepting() {
      stopping ??= server.shutdown();
    },
    async closeAll() {
      stopping ??= server.shutdown();
      await server.finished;
    },
    closed: server.finished,
  };
}
