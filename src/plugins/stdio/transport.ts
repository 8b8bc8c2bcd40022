import type { TransportDefinition } from "../../kernel/types.js";
import { MiB } from "../../skills/skill-files.js";
import { LineTransport } from "./line-transport.js";

/**
 * The longest message read from stdin (docs/security.md). A longer one is answered with a -32600
 * error and skipped, and the session goes on. Client requests are small; this bounds memory.
 */
export const MAX_MESSAGE_BYTES = 16 * MiB;

/**
 * One server over the process's stdin/stdout. The session ends when the client closes stdin or
 * stdout (EPIPE), or when the kernel closes.
 */
export const stdioTransport: TransportDefinition = {
  name: "stdio",
  async start({ createServer, logger }) {
    const server = createServer();
    const transport = new LineTransport(process.stdin, process.stdout, { maxMessageBytes: MAX_MESSAGE_BYTES, logger });
    let resolveClosed!: () => void;
    const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
    transport.onclose = () => resolveClosed();
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
