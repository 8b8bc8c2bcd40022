import { Client, InMemoryTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterEach } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { createKernel, type SkillsKernel as Kernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";

const open: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: any;
}

export interface Booted {
  readonly kernel: Kernel;
  readonly client: Client;
  call(tool: string, args: Record<string, unknown>): Promise<ToolAnswer>;
}

/** A kernel with these plugins and an SDK client linked to it in memory; both closed after the test. */
export async function boot(plugins: PluginEntry[], baseDir: string): Promise<Booted> {
  const kernel = await createKernel({ config: { plugins }, baseDir, logger: createLogger("error", () => {}) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await kernel.close();
  });
  return {
    kernel,
    client,
    async call(tool, args) {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      return { isError: result.isError === true, text, structured: result.structuredContent };
    },
  };
}
