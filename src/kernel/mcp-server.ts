import { McpServer, type CallToolResult, type ServerContext } from "@modelcontextprotocol/server";
import { ToolInputError, errorMessage } from "./errors.js";
import type { Logger } from "./logger.js";
import type { Identity, InstructionsSection, KernelTool, ListingTtl, ServerBuildOptions, ServerExtension, ToolCallExtra } from "./types.js";
import { VERSION } from "../version.js";

const INSTRUCTIONS =
  "This server serves Agent Skills: folders of instructions, references and scripts for specific tasks. " +
  "Use its tools to find the skill that fits the task at hand and load only what you need.";

/** The results 2026-07-28 makes cacheable; each carries the same hint (ServerBuild.cacheHint). */
const CACHEABLE = ["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"] as const;

const LIST_CHANGED = ["notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed"];

/** The kernel's instructions, then each plugin's section; a section that throws is logged and left out. */
function composeInstructions(sections: readonly InstructionsSection[], logger: Logger, identity: Identity | undefined): string {
  const parts = [INSTRUCTIONS];
  for (const section of sections) {
    try {
      const text = section({ identity });
      if (text) parts.push(text);
    } catch (error) {
      logger.error(`an instructions section failed, and is left out: ${errorMessage(error)}`);
    }
  }
  return parts.join("\n\n");
}

/**
 * Build one McpServer from the kernel's registry. The SDK binds a server to a single transport,
 * so transports call this once per connection (stdio: once; HTTP: per session or request).
 */
export function createMcpServer(
  {
    tools,
    extensions,
    instructions,
    listingTtl,
    logger,
  }: {
    tools: readonly KernelTool[];
    extensions: readonly ServerExtension[];
    instructions: readonly InstructionsSection[];
    listingTtl: ListingTtl | undefined;
    logger: Logger;
  },
  options: ServerBuildOptions = {},
): McpServer {
  // An answer for one caller (an identity, a token) is never for a shared cache.
  const personal = options.authenticated === true || options.identity !== undefined;
  const cacheHint = { ttlMs: listingTtl?.() ?? 0, cacheScope: personal ? "private" : "public" } as const;
  const { identity } = options;
  const server = new McpServer(
    { name: "skills-kernel", version: VERSION },
    {
      instructions: composeInstructions(instructions, logger, options.identity),
      // logging: clients may set a level (logging/setLevel, or per request from 2026-07-28); the SDK answers it.
      // tools: fixed once the kernel has booted, so it never announces a change to them.
      capabilities: { logging: {}, ...(tools.length > 0 && { tools: { listChanged: false } }) },
      cacheHints: Object.fromEntries(CACHEABLE.map((method) => [method, cacheHint])),
      // A catalog change adds, removes or updates many prompts at once: one list_changed per tick.
      debouncedNotificationMethods: LIST_CHANGED,
    },
  );
  const cleanups = extensions.flatMap((extend) => extend(server, { cacheHint, identity }) ?? []);
  if (cleanups.length > 0) {
    const previous = server.server.onclose;
    server.server.onclose = () => {
      previous?.();
      for (const cleanup of cleanups) cleanup();
    };
  }
  for (const tool of tools) {
    const handler = tool.handler as (args: unknown, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
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
      (async (...params: unknown[]) => {
        const args = takesArgs ? params[0] : {};
        const context = (takesArgs ? params[1] : params[0]) as ServerContext;
        try {
          return await handler(args, { signal: context.mcpReq.signal, authInfo: context.http?.authInfo, identity, context });
        } catch (error) {
          // A ToolInputError is the agent's to fix, and its message is written for the agent.
          // Anything else is a bug: its message may hold paths or internals, so it goes to the
          // log in full and the agent learns only that the tool failed.
          if (error instanceof ToolInputError) {
            return { isError: true, content: [{ type: "text", text: `${tool.name}: ${errorMessage(error)}` }] };
          }
          logger.error(`tool ${tool.name} failed: ${errorMessage(error)}`);
          if (error instanceof Error && error.stack) logger.debug(error.stack);
          return {
            isError: true,
            content: [{ type: "text", text: `${tool.name}: internal error; the server's log has the details` }],
          };
        }
      }) as never,
    );
  }
  return server;
}
