import type { Client } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { createKernel, type SkillsKernel } from "../create-kernel.js";
import type { PluginEntry, SkillsKernelConfig } from "../kernel/config.js";
import { createLogger, type LogLevel } from "../kernel/logger.js";
import type { Identity } from "../kernel/types.js";

/** What startTestKernel boots: the plugins under test and the rest of their config. */
export interface TestKernelOptions {
  /** The config's plugins: yours, and the built-ins they work with ("list-skills", "read-skill"…). */
  readonly plugins: readonly PluginEntry[];
  /** The rest of the config. */
  readonly config?: Omit<SkillsKernelConfig, "plugins">;
  /** Where relative paths in options resolve from. Default: the working directory. */
  readonly baseDir?: string;
  /** Who the connected client is, as a signed-in HTTP caller would be; absent: anonymous. */
  readonly identity?: Identity;
  /** The kernel's log level (stderr). Default "silent". */
  readonly logLevel?: LogLevel;
}

/** A kernel booted for a test, with an MCP client connected to it; close it when the test ends. */
export interface TestKernel {
  /** The kernel itself, for what a test checks beside MCP (its catalog, `callTool`, services). */
  readonly kernel: SkillsKernel;
  /** The official MCP client, connected in process to a server the kernel built for `identity`. */
  readonly client: Client;
  /** One tool call over that client, the result as the agent gets it. */
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes the client, then the kernel. */
  close(): Promise<void>;
}

/**
 * Boots a kernel with `plugins` in process, waits for its catalog's first load, and connects the
 * official MCP client to it over an in-memory link: a plugin's test talks to it as an agent would.
 */
export async function startTestKernel(options: TestKernelOptions): Promise<TestKernel> {
  const { Client, InMemoryTransport } = await importClient();
  const kernel = await createKernel({
    config: { ...options.config, plugins: options.plugins },
    baseDir: options.baseDir,
    logger: createLogger(options.logLevel ?? "silent"),
  });
  try {
    await kernel.catalog.ready();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const identity = options.identity;
    await kernel.createMcpServer(identity ? { identity, authenticated: true } : {}).connect(serverSide);
    const client = new Client({ name: "skills-kernel-testing", version: "1.0.0" });
    await client.connect(clientSide);
    return {
      kernel,
      client,
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      async close() {
        await client.close();
        await kernel.close();
      },
    };
  } catch (error) {
    await kernel.close();
    throw error;
  }
}

/**
 * The official MCP client, an optional peer dependency: imported only here, so the rest of
 * skills-kernel/testing works without it, and its absence is one line saying what to install.
 */
async function importClient(): Promise<typeof import("@modelcontextprotocol/client")> {
  try {
    return await import("@modelcontextprotocol/client");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new Error(
      "startTestKernel connects the official MCP client, which is not installed: npm install -D @modelcontextprotocol/client",
    );
  }
}
