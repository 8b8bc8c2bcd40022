import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import type { Clock } from "../../../../src/kernel/clock.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { createHttpApp, type HttpApp, type HttpAppOptions } from "../../../../src/plugins/transports/http/app.js";
import { defaultAllowedHosts } from "../../../../src/plugins/transports/http/guard.js";
import { httpOptionsSchema } from "../../../../src/plugins/transports/http/options.js";
import type { HttpRoute } from "../../../../src/plugins/transports/http/routes.js";
import { TOKENS } from "../../../../src/tokens.js";

export const EXAMPLES = fileURLToPath(new URL("../../../../examples/skills", import.meta.url));

/** The headers an MCP client sends with a POST, and a Host the default names allow. */
export const MCP_HEADERS = {
  host: "127.0.0.1:3000",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
} as const;

/** A kernel serving the example skills with the tools, the REST API and the catalog page. */
export function bootExamples(): Promise<SkillsKernel> {
  return createKernel({
    config: {
      plugins: [
        ["fs", { roots: [EXAMPLES] }],
        "list-skills",
        "search-skills",
        "read-skill",
        "fetch-skill-files",
        "rest-api",
        "catalog-page",
      ],
    },
    logger: createLogger("silent"),
  });
}

export interface AppSettings extends Omit<z.input<typeof httpOptionsSchema>, "host" | "port"> {
  readonly clock?: Clock;
  readonly routes?: readonly HttpRoute[];
  /** The port the app is told it listens on (default 3000), as `serve` tells it once bound. */
  readonly port?: number;
  readonly basePath?: string;
}

/**
 * The app `serve --transport http` runs, over a real kernel, answering in this process: bound to
 * 127.0.0.1 on `port` unless `allowedHosts` says otherwise.
 */
export function appOf(
  kernel: SkillsKernel,
  { clock, routes, port = 3000, basePath, ...settings }: AppSettings = {},
): HttpApp {
  const options = httpOptionsSchema.parse({ ...settings, port });
  const allowedHosts = defaultAllowedHosts(options.host, options.allowedHosts);
  const appOptions: HttpAppOptions = {
    ...options,
    allowedHosts,
    basePath,
    boundPort: options.allowedHosts === undefined ? () => port : undefined,
  };
  return createHttpApp({
    buildServer: (build) => kernel.createMcpServer(build),
    edition: () => kernel.serverEdition(),
    personal: options.authToken !== undefined,
    logger: createLogger("silent"),
    options: appOptions,
    routes: routes ?? kernel.resolveAll(TOKENS.HttpRoute),
    catalogFor: kernel.catalogFor,
    clock,
  });
}

/** A GET to `path` with a Host the default names allow, plus `headers`. */
export function get(
  app: HttpApp,
  path: string,
  headers: Record<string, string> = {},
  client?: string,
): Promise<Response> {
  return app.fetch(
    new Request(`http://127.0.0.1:3000${path}`, { headers: { host: "127.0.0.1:3000", ...headers } }),
    client,
  );
}

/** A POST of `body` (JSON unless a string) to `path` with MCP's headers, plus `headers`. */
export function post(
  app: HttpApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  client?: string,
): Promise<Response> {
  return app.fetch(
    new Request(`http://127.0.0.1:3000${path}`, {
      method: "POST",
      headers: { ...MCP_HEADERS, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    client,
  );
}

/** A 2025-11-25 initialize request. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "in-process", version: "0" } },
} as const;

/** The JSON-RPC answer in a response, whether sent as JSON or as one SSE event. */
export async function answerOf(response: Response): Promise<any> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return JSON.parse(text);
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  return JSON.parse(data!.slice("data: ".length));
}
