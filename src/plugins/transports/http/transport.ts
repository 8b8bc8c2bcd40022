import type { CacheMonitor } from "../../../kernel/cache.js";
import type { WholeCatalog } from "../../../skills/catalog/catalog.js";
import type { TransportDefinition } from "../../../kernel/types.js";
import { createHttpApp } from "./app.js";
import { defaultAllowedHosts } from "./guard.js";
import { listen } from "./listen.js";
import { AUTH_TOKEN_ENV, isLoopback, type HttpOptions } from "./options.js";
import { personalAnswers } from "./auth/cache-scope.js";
import { skillsReadiness } from "./readiness.js";
import type { HttpRoute } from "./routes.js";

export interface HttpTransportParts {
  readonly options: HttpOptions;
  /** Read when the transport starts, so routes every plugin contributed are there. */
  readonly routes: () => readonly HttpRoute[];
  readonly catalog: WholeCatalog | undefined;
  /** The cache backend's monitor, when a cache plugin is configured: /readyz reports its state. */
  readonly cache?: CacheMonitor;
}

/**
 * MCP Streamable HTTP on a port of its own, with /healthz, /readyz and contributed routes.
 * Closing it (SIGTERM, or the kernel closing) stops accepting, lets requests in flight finish,
 * closes every session, then the socket.
 */
export function httpTransport({ options, routes, catalog, cache }: HttpTransportParts): TransportDefinition {
  return {
    name: "http",
    async start({ createServer, instructionsSettled, serverEdition, logger, signal, catalogFor }) {
      const allowedHosts = defaultAllowedHosts(options.host, options.allowedHosts);
      if (!isLoopback(options.host) && options.authToken === undefined && options.oauth === undefined) {
        logger.warn(
          `listening on ${options.host} without an auth token: anyone who can reach it can use it (set --auth-token or ${AUTH_TOKEN_ENV})`,
        );
      }
      if (allowedHosts === undefined) {
        logger.warn(
          `listening on every interface without allowedHosts: Host and Origin are not checked (DNS-rebinding protection is off)`,
        );
      }
      // The default names are checked with the port too; names the config lists are its to vouch for.
      let listening: number | undefined;
      const boundPort = options.allowedHosts === undefined && allowedHosts !== undefined ? () => listening : undefined;
      const contributed = routes();
      const app = createHttpApp({
        // As over stdio: the first servers wait (bounded) for what their instructions say to settle.
        buildServer: async (build) => {
          await instructionsSettled();
          return createServer(build);
        },
        edition: serverEdition,
        personal: personalAnswers(options, catalog),
        logger,
        options: { ...options, allowedHosts, boundPort },
        routes: contributed,
        catalogFor,
        readiness: skillsReadiness(catalog, cache),
      });
      const listener = await listen(app, options.host, options.port, options);
      listening = listener.port;
      const shown = options.host.includes(":") && !options.host.startsWith("[") ? `[${options.host}]` : options.host;
      const origin = `http://${shown}:${listener.port}`;
      logger.info(`listening on ${origin}${options.path} (${options.stateless ? "stateless" : "stateful"})`);
      // Where the other plugins' endpoints are (the catalog page, /metrics): a URL to open or scrape.
      if (contributed.length > 0)
        logger.info(`also serving ${contributed.map((route) => `${origin}${route.prefix}`).join(", ")}`);

      let closing: Promise<void> | undefined;
      const close = () =>
        (closing ??= (async () => {
          listener.stopAccepting();
          await app.close(options.shutdownGraceMs);
          await listener.closeAll();
        })());
      signal.addEventListener("abort", () => void close(), { once: true });
      return { closed: listener.closed, close };
    },
  };
}
