import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, type HttpBindings, type Http2Bindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { HttpApp } from "./app.js";
import { TextAnswer } from "./respond.js";

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

type FetchHandler = (request: Request) => Promise<Response>;
type NodeApp = Pick<HttpApp, "fetch" | "answer">;

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
interface BunGlobal {
  serve(options: { hostname: string; port: number; fetch: FetchHandler; idleTimeout: number; maxRequestBodySize: number }): BunServer;
}
interface DenoServer {
  readonly addr: { readonly port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoGlobal {
  serve(options: { hostname: string; port: number; onListen: () => void }, handler: FetchHandler): DenoServer;
}

/**
 * Listen with the runtime's own server: Bun.serve on Bun, Deno.serve on Deno, node:http (through
 * the adapter the MCP SDK itself uses) on Node. All three serve the same app.
 */
export async function listen(app: NodeApp, host: string, port: number, maxBodyBytes: number): Promise<Listener> {
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (bun) return listenBun(bun, app.fetch, host, port, maxBodyBytes);
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (deno) return listenDeno(deno, app.fetch, host, port);
  return listenNode(app, host, port);
}

/**
 * A node:http request handler for the app, leaving the app's global Request and Response alone.
 * An answer built whole as text is written with one writeHead and end, as a bare node:http
 * server would: a web Response would be read back through a stream by the adapter, which cost
 * more than the rest of a stateless request's HTTP handling.
 */
export function toNodeHandler(app: NodeApp) {
  return getRequestListener(
    async (request: Request, { outgoing }: HttpBindings | Http2Bindings) => {
      const answer = await app.answer(request);
      if (!(answer instanceof TextAnswer)) return answer;
      if (answer.body === null) outgoing.writeHead(answer.status, answer.headers).end();
      else outgoing.writeHead(answer.status, { ...answer.headers, "content-length": String(Buffer.byteLength(answer.body)) }).end(answer.body);
      return RESPONSE_ALREADY_SENT;
    },
    { overrideGlobalObjects: false },
  );
}

async function listenNode(app: NodeApp, host: string, port: number): Promise<Listener> {
  const server: Server = createServer(toNodeHandler(app));
  // Event streams stay open for as long as a client listens; node's default request timeout
  // (5 minutes) would cut them.
  server.requestTimeout = 0;
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

function listenBun(bun: BunGlobal, fetch: FetchHandler, host: string, port: number, maxBodyBytes: number): Listener {
  // idleTimeout (seconds) outlasts the SDK's 15 s keep-alive on event streams.
  const server = bun.serve({ hostname: host, port, fetch, idleTimeout: 60, maxRequestBodySize: maxBodyBytes });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
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

async function listenDeno(deno: DenoGlobal, fetch: FetchHandler, host: string, port: number): Promise<Listener> {
  let listening!: () => void;
  const started = new Promise<void>((resolve) => (listening = resolve));
  const server = deno.serve({ hostname: host, port, onListen: () => listening() }, fetch);
  await started;
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
