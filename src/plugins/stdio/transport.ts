import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { TransportDefinition } from "../../kernel/types.js";

/**
 * One server over the process's stdin/stdout. The session ends when the client closes stdin;
 * the SDK transport does not watch for that, so this does.
 */
export const stdioTransport: TransportDefinition = {
  name: "stdio",
  async start({ createServer, logger }) {
    const server = createServer();
    const transport = new StdioServerTransport();
    let resolveClosed!: () => void;
    const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
    const onEnd = () => {
      logger.debug("stdin closed; stopping");
      void server.close();
    };
    transport.onclose = () => {
      process.stdin.off("end", onEnd);
      // Let the process exit once nothing else is pending: stdin would otherwise hold it open.
      process.stdin.pause();
      resolveClosed();
    };
    process.stdin.once("end", onEnd);
    await server.connect(transport);
    return {
      closed,
      async close() {
        await server.close();
        await closed;
      },
    };
  },
};
