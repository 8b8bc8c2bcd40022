import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { McpServerFactory } from "../../kernel/types.js";

/**
 * McpServers for stateless requests, reused. Building one registers every tool and extension
 * again, a large share of a stateless request's cost; the SDK lets a closed server connect to a
 * new transport, and a stateless request leaves nothing behind that the next one could see (no
 * session, no stream; extensions' change listeners end with the first close, and without a stream
 * they would have no one to tell).
 */
export class ServerPool {
  readonly #idle: McpServer[] = [];

  constructor(
    private readonly createServer: McpServerFactory,
    /** Servers kept idle at most: the peak of concurrent requests worth remembering. */
    private readonly keep: number,
  ) {}

  take(): McpServer {
    return this.#idle.pop() ?? this.createServer();
  }

  /** Close the server's transport and keep it for the next request. */
  async give(server: McpServer): Promise<void> {
    await server.close();
    if (this.#idle.length < this.keep) this.#idle.push(server);
  }

  clear(): void {
    this.#idle.length = 0;
  }
}
