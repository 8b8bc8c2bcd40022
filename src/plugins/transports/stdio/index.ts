import { definePlugin } from "../../../kernel/config.js";
import { KERNEL_TOKENS } from "../../../kernel/tokens.js";
import { stdioTransport } from "./transport.js";

/** The stdio transport: one MCP session over the process's stdin and stdout. */
export default definePlugin({
  name: "stdio",
  provides: [KERNEL_TOKENS.Transport],
  setup(ctx) {
    ctx.contribute(KERNEL_TOKENS.Transport, stdioTransport);
  },
});
