import { Client, InMemoryTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { PluginEntry } from "../../src/kernel/config.js";
import { createKernel, type SkillsKernel as Kernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";

export interface SkillServer {
  readonly kernel: Kernel;
  readonly client: Client;
  /** Every log line, debug included. */
  readonly logs: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The plugins that serve skill files: both tools and the skill:// resources. */
export const SKILL_PLUGINS = ["read-skill", "fetch-skill-files", "skill-resources"] as const;

/**
 * Boots a kernel serving `roots` with `plugins` and connects an MCP client to it in-process, so
 * tests drive the tools as an agent would.
 */
export async function startSkillServer(
  roots: unknown[],
  plugins: readonly PluginEntry[] = SKILL_PLUGINS,
  fsOptions: Record<string, unknown> = {},
): Promise<SkillServer> {
  const logs: string[] = [];
  const kernel = await createKernel({
    config: { plugins: [["fs", { roots, ...fsOptions }], ...plugins] },
    logger: createLogger("debug", (line) => logs.push(line)),
    configSource: "test-config",
  });
  await kernel.catalog.ready();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return {
    kernel,
    client,
    logs,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await kernel.close();
    },
  };
}

/** All the text of a tool result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}
