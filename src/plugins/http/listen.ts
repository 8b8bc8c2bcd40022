import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";

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
 * the adapter the MCP SDK itself uses) on Node. All three serve the same fetch handler.
 */
export async function listen(fetch: FetchHandler, host: string, port: number, maxBodyBytes: number): Promise<Listener> {
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (bun) return listenBun(bun, fetch, host, port, maxBodyBytes);
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (deno) return listenDeno(deno, fetch, host, port);
  return listenNode(fetch, host, port);
}

/** A node:http request handler for a fetch handler, leaving the app's global Request and Response alone. */
export function toNodeHandler(fetch: FetchHandler) {
  return getRequestListener(fetch, { overrideGlobalObjects: false });
}

async function listenNode(fetch: FetchHandler, host: string, port: number): Promise<Listener> {
  const server: Server = createServer(toNodeHandler(fetch));
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
