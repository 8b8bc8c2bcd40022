import { definePlugin, z } from "skills-kernel";

/** The skill_stats tool: how many skills each source serves, and how many were skipped. */
export default definePlugin({
  name: "skill-stats",
  version: "1.0.0",
  // The kernel versions this plugin works with; a kernel outside the range refuses it by name.
  kernel: ">=0.1.0 <0.2.0",
  setup(ctx) {
    ctx.addTool({
      name: "skill_stats",
      description: "How many skills this server serves, per source, and how many it skipped as broken.",
      inputSchema: { source: z.string().min(1).optional().describe("Count only this source.") },
      outputSchema: {
        total: z.number(),
        bySource: z.record(z.string(), z.number()),
        skipped: z.number(),
      },
      annotations: { readOnlyHint: true },
      // `catalog` is the caller's view: sources this caller may not see are not in it.
      async handler({ source }, { catalog }) {
        await catalog.ready();
        const sources = catalog.sources.map((s) => s.name);
        if (source !== undefined && !sources.includes(source)) {
          return {
            isError: true,
            content: [{ type: "text", text: `no source named "${source}"; sources: ${sources.join(", ")}` }],
          };
        }
        const bySource: Record<string, number> = {};
        for (const name of source === undefined ? sources : [source]) bySource[name] = 0;
        for (const skill of catalog.list()) if (skill.source in bySource) bySource[skill.source]! += 1;
        const skipped = catalog
          .diagnostics()
          .filter((d) => d.severity === "error" && (source === undefined || d.source === source)).length;
        const total = Object.values(bySource).reduce((sum, n) => sum + n, 0);
        const lines = Object.entries(bySource).map(([name, count]) => `${name}: ${count}`);
        return {
          content: [{ type: "text", text: [`${total} skills`, ...lines, `${skipped} skipped`].join("\n") }],
          structuredContent: { total, bySource, skipped },
        };
      },
    });
  },
});
