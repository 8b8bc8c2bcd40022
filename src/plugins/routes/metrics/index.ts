import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { TOKENS } from "../../../tokens.js";
import { restError } from "../../transports/http/index.js";

/** What other plugins report to the metrics plugin. */
const optionsSchema = z
  .object({
    /** Where Prometheus scrapes, beside /mcp. */
    path: z
      .string()
      .regex(/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/, "path must look like /metrics")
      .default("/metrics"),
    /**
     * The usage plugin's counts get a series per skill (source, skill, kind) while the catalog
     * serves at most this many skills; past it, totals alone keep the series bounded. 0: never.
     */
    maxSkillSeries: z.number().int().min(0).max(10_000).default(200),
  })
  .strict();

/**
 * Prometheus metrics at GET /metrics on the http transport (HTTP only: stdio has no place to
 * scrape): MCP requests, latency and errors per method and tool, skills and state per source,
 * cache hits and misses, the search index's build time, and the usage plugin's counts. Behind the same Host checks and bearer
 * auth as every route but the health checks.
 */
export default definePlugin({
  name: "metrics",
  provides: [TOKENS.HttpRoute, TOKENS.RequestObserver, TOKENS.MetricsRecorder],
  consumes: [{ token: TOKENS.CacheMonitor, optional: true }],
  options: optionsSchema,
  needsTrust: { plugin: "it answers scrapes on the HTTP listener" },
  async setup(ctx, { path, maxSkillSeries }) {
    // prom-client is loaded only by a kernel that serves metrics.
    const { createKernelMetrics } = await import("./registry.js");
    let toolNames: ReadonlySet<string> = new Set();
    const metrics = createKernelMetrics({
      cache: ctx.resolveOptional(TOKENS.CacheMonitor),
      toolNames: () => toolNames,
      maxSkillSeries,
    });
    ctx.contribute(TOKENS.RequestObserver, metrics.observer);
    ctx.provide(TOKENS.MetricsRecorder, {
      searchIndexBuilt: (seconds) => metrics.searchIndexBuilt(seconds),
      skillUsed: (skill, counter) => metrics.skillUsed(skill, counter),
      searchMissed: () => metrics.searchMissed(),
    });
    ctx.contribute(TOKENS.HttpRoute, {
      prefix: path,
      async handle(request, requested, { catalog }) {
        if (requested !== path) return restError(404, `nothing at ${requested}`);
        if (request.method !== "GET" && request.method !== "HEAD")
          return restError(405, "metrics are read with GET", { allow: "GET, HEAD" });
        // The scraper's view: sources it may not see are not named, nor their skills counted.
        const body = await metrics.scrape(catalog);
        return new Response(request.method === "HEAD" ? null : body, {
          status: 200,
          headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" },
        });
      },
    });
    return {
      start(started) {
        toolNames = new Set(started.resolveAll(TOKENS.Tool).map((tool) => tool.name));
      },
    };
  },
});
