import { errorMessage } from "../../../kernel/errors.js";
import type { Identity, TransportDefinition } from "../../../kernel/types.js";
import { MiB } from "../../../skills/files/skill-files.js";

/**
 * The longest message read from stdin (docs/security.md). A longer one is answered with a -32600
 * error and skipped, and the session goes on. Client requests are small; this bounds memory.
 */
export const MAX_MESSAGE_BYTES = 16 * MiB;

/**
 * One connection over the process's stdin/stdout, served by the SDK's serveStdio: a 2025
 * `initialize` pins a 2025-11-25 server, a 2026-07-28 request a modern one (with
 * subscriptions/listen). It ends when the client closes stdin or stdout (EPIPE), or when the
 * kernel closes. The client is `identity` (the stdio plugin's option), which decides what it sees.
 */
export const stdioTransport = (identity?: Identity): TransportDefinition => ({
  name: "stdio",
  async start({ createServer, instructionsSettled, logger }) {
    // Loaded when a session starts: a one-shot command boots this plugin (LocalCaller) and serves nothing.
    const [{ serveStdio }, { LineTransport }] = await Promise.all([
      import("@modelcontextprotocol/server/stdio"),
      import("./line-transport.js"),
    ]);
    const transport = new LineTransport(process.stdin, process.stdout, { maxMessageBytes: MAX_MESSAGE_BYTES, logger });
    // A host spawns the server and opens the connection at once, and reads the instructions once:
    // the server is built when what they say has settled (the catalog summary: the local folders loaded).
    const build = async () => {
      await instructionsSettled();
      return createServer({ identity });
    };
    const handle = serveStdio(build, {
      transport,
      // What the SDK refused or dropped on its own (a malformed envelope, an unsupported revision).
      onerror: (error) => logger.warn(`stdio: ${errorMessage(error)}`),
    });
    return {
      closed: transport.closed,
      async close() {
        await handle.close();
        await transport.closed;
      },
    };
  },
});
