import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { TOKENS } from "../../../tokens.js";
import { renderAnswer, toAnswer } from "./format.js";

/** The `get_cache_stats` tool: how the shared cache is doing, for operators more than agents. */
export default definePlugin({
  name: "cache-stats",
  // The whole catalog only to tell a caller who sees all of it from one who does not.
  consumes: [TOKENS.CacheMonitor, { token: TOKENS.WholeCatalog, optional: true, wholeCatalog: true }],
  setup(ctx) {
    const monitor = ctx.resolve(TOKENS.CacheMonitor);
    const catalog = ctx.resolveOptional(TOKENS.WholeCatalog);
    ctx.addTool({
      name: "get_cache_stats",
      title: "Cache statistics",
      description:
        "How the server's cache is doing: backend (memory or redis), state (connected, degraded: skipping the cache " +
        "until the backend is back, reconnecting), hits, misses, hit ratio, errors, entries per namespace, the last " +
        "error and uptime. For diagnosing a slow or misconfigured server; agents rarely need it.",
      inputSchema: {},
      outputSchema: {
        backend: z.string(),
        target: z.string(),
        state: z.enum(["connected", "degraded", "reconnecting"]),
        hits: z.number().int(),
        misses: z.number().int(),
        hit_ratio: z.number().nullable(),
        errors: z.number().int(),
        bypassed: z.number().int(),
        entries: z.record(z.string(), z.number().int()).nullable(),
        entries_complete: z.boolean(),
        entries_withheld: z
          .boolean()
          .optional()
          .describe("entries are not shown: they count skills of sources this caller may not see"),
        last_error: z.object({ message: z.string(), at: z.string() }).nullable(),
        uptime_seconds: z.number(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler(_args, { catalog: view }) {
        // Entries count every skill's, so only a caller who may see every source gets them.
        const withheld = catalog !== undefined && view.sources.length !== catalog.sources.length;
        const answer = toAnswer(await monitor.stats(), withheld);
        return { content: [{ type: "text", text: renderAnswer(answer) }], structuredContent: answer };
      },
    });
  },
});

// The CLI's cache-stats command prints the tool's answer as the tool renders it.
export { renderAnswer } from "./format.js";
