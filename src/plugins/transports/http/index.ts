import { definePlugin } from "../../../kernel/config.js";
import { ConfigError } from "../../../kernel/errors.js";
import { TOKENS } from "../../../tokens.js";
import { AUTH_TOKEN_ENV, checkWriteTools, httpOptionsSchema, MIN_TOKEN_LENGTH } from "./options.js";
import type { HttpRoute } from "./routes.js";
import { httpTransport } from "./transport.js";

/**
 * The HTTP transport: MCP Streamable HTTP (stateful sessions, or stateless for replicas behind a
 * load balancer), health checks, DNS-rebinding protection and optional bearer-token auth.
 * Other plugins add endpoints beside MCP under TOKENS.HttpRoute.
 */
export default definePlugin({
  name: "http",
  provides: [TOKENS.Transport, TOKENS.HttpOptions],
  consumes: [
    // The whole catalog: /readyz reports on every source (never naming one), whoever asks.
    { token: TOKENS.WholeCatalog, optional: true, wholeCatalog: true },
    { token: TOKENS.CacheMonitor, optional: true },
    // Read once every plugin is set up: route plugins (rest-api) in turn read this plugin's options.
    { token: TOKENS.HttpRoute, optional: true, fromStart: true },
  ],
  options: httpOptionsSchema,
  needsTrust: { plugin: "it opens an HTTP listener" },
  setup(ctx, configured) {
    const fromEnv = process.env[AUTH_TOKEN_ENV];
    if (
      configured.authToken === undefined &&
      fromEnv !== undefined &&
      fromEnv !== "" &&
      fromEnv.length < MIN_TOKEN_LENGTH
    ) {
      throw new ConfigError(`${AUTH_TOKEN_ENV} must be at least ${MIN_TOKEN_LENGTH} characters`);
    }
    // With sign-in, a shared token from the environment is not used: it names no caller.
    const options =
      configured.authToken === undefined && configured.oauth === undefined && fromEnv
        ? { ...configured, authToken: fromEnv }
        : configured;
    checkWriteTools(options);
    ctx.provide(TOKENS.HttpOptions, options);
    const catalog = ctx.resolveOptional(TOKENS.WholeCatalog);
    let routes: readonly HttpRoute[] = [];
    const cache = ctx.resolveOptional(TOKENS.CacheMonitor);
    ctx.contribute(TOKENS.Transport, httpTransport({ options, routes: () => routes, catalog, cache }));
    return {
      start(started) {
        routes = started.resolveAll(TOKENS.HttpRoute);
      },
    };
  },
});

// The public face: embedding apps serve the handler from their own server; route plugins
// (rest-api) add endpoints under TOKENS.HttpRoute and answer with the same JSON helpers.
export { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from "./handler.js";
export type { HttpRoute, RequestHead, RouteCaller, RouteRequest, SignInGate, TokenVerdict } from "./routes.js";
export { readIssuerMetadata } from "./auth/verifier.js";
export type { Caller } from "./auth/gate.js";
export { isOperator } from "./auth/operator.js";
export { isLoopback, MIN_TOKEN_LENGTH, REPLICA_ID, WRITE_SCOPE, type HttpOptions } from "./options.js";
export { heldBytesResponse, json, restError } from "./respond.js";
