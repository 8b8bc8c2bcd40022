import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { identitySchema } from "../../../skills/catalog/visibility.js";
import { stdioTransport } from "./transport.js";
import { TOKENS } from "../../../tokens.js";

const optionsSchema = z.strictObject({
  /**
   * Who the stdio client is, for sources with `visibleTo`: stdio has no sign-in, so a config
   * chooses it (a team's view, tested locally). Without one, only unrestricted sources are served.
   */
  identity: identitySchema.optional(),
});

/** The stdio transport: one MCP session over the process's stdin and stdout. */
export default definePlugin({
  name: "stdio",
  provides: [TOKENS.Transport, TOKENS.LocalCaller],
  options: optionsSchema,
  setup(ctx, { identity }) {
    ctx.contribute(TOKENS.Transport, stdioTransport(identity));
    ctx.provide(TOKENS.LocalCaller, { identity });
  },
});
