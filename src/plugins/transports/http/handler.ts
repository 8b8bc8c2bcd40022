import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kernel } from "../../../kernel/kernel.js";
import { TOKENS } from "../../../tokens.js";
import { createHttpApp } from "./app.js";
import { defaultAllowedHosts } from "./guard.js";
import { toNodeHandler } from "./listen.js";
import { httpOptionsSchema, type HttpOptions } from "./options.js";
import { personalAnswers } from "./auth/cache-scope.js";
import { skillsReadiness } from "./readiness.js";

/** What an app embedding the kernel may set; anything unset comes from the http plugin's config, else its default. */
export type HttpHandlerOptions = Partial<
  Pick<
    HttpOptions,
    | "path"
    | "stateless"
    | "authToken"
    | "oauth"
    | "allowedHosts"
    | "allowedOrigins"
    | "maxBodyBytes"
    | "bodyTimeoutMs"
    | "maxBatchSize"
    | "maxAnswerBytes"
    | "maxSessions"
    | "maxSessionsPerClient"
    | "sessionIdleMs"
    | "maxWorkInFlight"
    | "maxWorkPerClient"
    | "maxWorkQueuedPerClient"
    | "maxWorkShare"
  >
> & {
  /** The prefix the app mounts the handler under (`/skills`), when the app does not strip it itself. */
  readonly basePath?: string;
};

/** The kernel's HTTP face for an app that already has a server: MCP, /healthz, /readyz and plugin routes. */
export interface HttpHandler {
  /**
   * Web-standard: for Bun.serve, Deno.serve, Hono and anything else that speaks Request and
   * Response. `client` names who sent it (its address, as the app's server knows it): requests
   * naming the same client share its work bounds (`maxWorkPerClient`, `maxWorkQueuedPerClient`).
   * Without it, a request is a client of its own and only the server-wide bound holds.
   */
  fetch(request: Request, client?: string): Promise<Response>;
  /** node:http style: for http.createServer, Express and Connect apps. */
  handleNodeRequest(request: IncomingMessage, response: ServerResponse): void;
  /** Finish requests in flight (up to the shutdown grace) and close every session. */
  close(): Promise<void>;
}

/**
 * Serve a booted kernel over HTTP from an app that owns the listening socket. Host/Origin checks
 * and auth apply as in `serve --transport http`: by default only loopback names may be in Host,
 * so an app served under a public name lists it in `allowedHosts`.
 */
export function createHttpHandler(kernel: Kernel, overrides: HttpHandlerOptions = {}): HttpHandler {
  const configured = kernel.resolveOptional(TOKENS.HttpOptions) ?? httpOptionsSchema.parse({});
  const options = { ...configured, ...definedOnly(overrides) };
  const catalog = kernel.resolveOptional(TOKENS.WholeCatalog);
  const app = createHttpApp({
    buildServer: (build) => kernel.createMcpServer(build),
    edition: () => kernel.serverEdition(),
    personal: personalAnswers(options, catalog),
    logger: kernel.logger.child("http"),
    options: { ...options, allowedHosts: defaultAllowedHosts(configured.host, options.allowedHosts) },
    routes: kernel.resolveAll(TOKENS.HttpRoute),
    catalogFor: kernel.catalogFor,
    readiness: skillsReadiness(catalog, kernel.resolveOptional(TOKENS.CacheMonitor)),
  });
  const nodeHandler = toNodeHandler(app.fetchHeld, options.maxBodyBytes);
  // Requests the app names no client for: each its own, so strangers never share one line.
  let unnamed = 0;
  return {
    // Mounted as it is (`Bun.serve({ fetch })`, `Deno.serve(handler)`), fetch is passed the
    // runtime's server or connection info second: only a string names a client.
    fetch: (request, client) =>
      app.fetch(request, typeof client === "string" && client !== "" ? client : `unnamed ${++unnamed}`),
    handleNodeRequest(request, response) {
      void nodeHandler(request, response);
    },
    close: () => app.close(options.shutdownGraceMs),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
