import { McpServer, SERVER_INFO_META_KEY, type ServerContext } from "@modelcontextprotocol/server";
import { observeRequests } from "./request-observer.js";
import { composeInstructions, type ServerParts } from "./server-parts.js";
import { runTool } from "./tool-call.js";
import { requestTracing } from "./tracing.js";
import type { HandlerCaller, KernelTool, ServerBuildOptions } from "./types.js";
import { SERVER_IDENTITY, SERVER_STAMP } from "./server-identity.js";

/** The results 2026-07-28 makes cacheable; each carries the same hint (ServerBuild.cacheHint). */
const CACHEABLE = [
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
] as const;

const LIST_CHANGED = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
];

/**
 * Whether a tool may write on the server: MCP's `readOnlyHint` defaults to false, so a tool that
 * does not say it only reads is taken at that word, and a remote caller gets it only when allowed.
 */
export function mayWrite(tool: Pick<KernelTool, "annotations">): boolean {
  return tool.annotations?.readOnlyHint !== true;
}

/**
 * Build one McpServer from the kernel's registry. The SDK binds a server to a single transport,
 * so transports call this once per connection (stdio: once; HTTP: per 2025-11-25 session or
 * request, and for the pool that serves 2026-07-28 requests).
 */
export function createMcpServer(
  { tools, extensions, instructions, listingTtl, catalogFor, logger, observers = [] }: ServerParts,
  options: ServerBuildOptions = {},
): McpServer {
  // An answer for one caller (an identity, a token) is never for a shared cache.
  const personal = options.authenticated === true || options.identity !== undefined;
  const cacheHint = { ttlMs: listingTtl?.() ?? 0, cacheScope: personal ? "private" : "public" } as const;
  const { identity } = options;
  const caller: HandlerCaller = { identity, catalog: catalogFor(identity) };
  const server = new McpServer(SERVER_IDENTITY, {
    instructions: composeInstructions(instructions, logger, caller),
    // logging: 2025-11-25 clients may set a level (logging/setLevel); the SDK answers it. 2026-07-28
    // deprecates it, so server/discover leaves it out (discoverWithoutLogging).
    // tools: fixed once the kernel has booted, so it never announces a change to them.
    capabilities: { logging: {}, ...(tools.length > 0 && { tools: { listChanged: false } }) },
    cacheHints: Object.fromEntries(CACHEABLE.map((method) => [method, cacheHint])),
    // A catalog change adds, removes or updates many prompts at once: one list_changed per tick.
    debouncedNotificationMethods: LIST_CHANGED,
  });
  discoverWithoutLogging(server);
  stampBriefly(server);
  observeRequests(server, [requestTracing, ...observers], caller);
  const cleanups = extensions.flatMap((extend) => extend(server, { cacheHint, ...caller }) ?? []);
  if (cleanups.length > 0 && options.lifetime) {
    options.lifetime.addEventListener("abort", () => cleanups.forEach((cleanup) => cleanup()), { once: true });
  } else if (cleanups.length > 0) {
    const previous = server.server.onclose;
    server.server.onclose = () => {
      previous?.();
      for (const cleanup of cleanups) cleanup();
    };
  }
  for (const tool of tools) {
    if (options.remote && !options.remote.writes && (mayWrite(tool) || tool.operatorOnly === true)) continue;
    // The SDK calls (args, ctx) when the tool has an input schema, (ctx) when it has none.
    const takesArgs = tool.inputSchema !== undefined;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      ((...params: unknown[]) => {
        const context = (takesArgs ? params[1] : params[0]) as ServerContext;
        return runTool(
          tool,
          takesArgs ? params[0] : {},
          {
            ...caller,
            signal: context.mcpReq.signal,
            authInfo: context.http?.authInfo,
            context,
            remote: options.remote !== undefined,
          },
          logger,
        );
      }) as never,
    );
  }
  return server;
}

/**
 * The SDK answers server/discover with the very capabilities initialize declares, and it has no
 * capabilities per revision: drop `logging`, deprecated at 2026-07-28, from that answer. The
 * serving entries install the discover handler at connect time, calling the server's
 * `_ondiscover`, so that method is wrapped (pinned SDK; test/e2e/stdio-modern.test.ts checks it).
 */
function discoverWithoutLogging(server: McpServer): void {
  type Discovering = { _ondiscover(): { capabilities: Record<string, unknown> } };
  const sdk = server.server as unknown as Discovering;
  const discover = sdk._ondiscover.bind(sdk);
  sdk._ondiscover = () => {
    const answer = discover();
    const { logging: _deprecated, ...capabilities } = answer.capabilities;
    // The whole identity, icons included, where a client learns who the server is (the stamp a
    // handler writes wins over the SDK's; stampBriefly).
    return { ...answer, capabilities, _meta: { [SERVER_INFO_META_KEY]: SERVER_IDENTITY } };
  };
}

/**
 * At 2026-07-28 the SDK stamps the server's identity on every result's `_meta`; the whole of it
 * (two icons as data: URIs) would more than double a search's answer. Every result but
 * server/discover's carries SERVER_STAMP instead: enough to tell which server and release
 * answered. The SDK asks `_outboundServerInfo` for the stamp (pinned SDK; the answer-size test in
 * test/e2e/answer-sizes.test.ts checks it).
 */
function stampBriefly(server: McpServer): void {
  (server.server as unknown as { _outboundServerInfo(): unknown })._outboundServerInfo = () => SERVER_STAMP;
}
