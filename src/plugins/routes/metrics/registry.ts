import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CacheMonitor } from "../../../kernel/cache.js";
import type { McpRequestEnd, RequestObserver } from "../../../kernel/request-observer.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import type { SourceStatus } from "../../../skills/catalog/catalog-types.js";

const SOURCE_STATES: readonly SourceStatus["state"][] = ["ok", "stale", "failed", "loading"];
const CACHE_STATES = ["connected", "degraded", "reconnecting"] as const;
/** JSON-RPC's reserved range: any code outside it is labelled "other", so a label can never be made up. */
const MIN_RPC_CODE = -32768;
const MAX_RPC_CODE = -32000;
const METHOD_NOT_FOUND = -32601;

export interface MetricsParts {
  readonly cache?: CacheMonitor;
  /** The names of the tools this kernel serves, known once every plugin has started. */
  readonly toolNames: () => ReadonlySet<string>;
  /** Per-skill usage series only while the scraper's catalog is at most this many skills. */
  readonly maxSkillSeries?: number;
}

/** The usage plugin's counters, as the `kind` label says them. */
const USE_KINDS: Readonly<Record<string, string>> = {
  searchHits: "search_hit",
  firstHits: "first_hit",
  reads: "read",
  fetches: "fetch",
  installs: "install",
};

/** One kernel's metrics: a registry of its own, so two kernels in a process never share a series. */
export interface KernelMetrics {
  readonly registry: Registry;
  readonly observer: RequestObserver;
  /** The search index was (re)built from the whole catalog in `seconds`. */
  searchIndexBuilt(seconds: number): void;
  /** One use of a skill the usage plugin counted. */
  skillUsed(skill: { readonly source: string; readonly name: string }, counter: string): void;
  /** One search that missed. */
  searchMissed(): void;
  /** A scrape's text: every series, with the per-source ones for the sources `view` shows alone. */
  scrape(view: CatalogView | undefined): Promise<string>;
}

/**
 * Every label value comes from a fixed set: methods this server answered (a method it does not
 * know is "unknown"), the tools it serves, JSON-RPC codes, and source names from the config.
 * Skill names appear only in the per-skill usage series, kept while the catalog is at most
 * `maxSkillSeries` skills; no query text appears anywhere. The per-source and per-skill series
 * name only the sources the scraper may see, so nothing of a restricted source leaks through a
 * scrape.
 */
export function createKernelMetrics({ cache, toolNames, maxSkillSeries = 0 }: MetricsParts): KernelMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: "skills_kernel_mcp_requests_total",
    help: "MCP requests answered, by method, tool (tools/call only) and outcome.",
    labelNames: ["method", "tool", "outcome"] as const,
    registers,
  });
  const duration = new Histogram({
    name: "skills_kernel_mcp_request_duration_seconds",
    help: "Time from an MCP request's arrival to its answer, by method and tool.",
    labelNames: ["method", "tool"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const errors = new Counter({
    name: "skills_kernel_mcp_errors_total",
    help: "MCP requests that failed, by method and JSON-RPC error code (tool_error: a tool result marked isError).",
    labelNames: ["method", "code"] as const,
    registers,
  });
  if (cache) {
    const cumulative = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          // The cache keeps its own running totals: the counter mirrors them at each scrape.
          this.reset();
          this.inc(read());
        },
      });
    cumulative("skills_kernel_cache_hits_total", "Cache reads that found their entry.", () => cache.counts().hits);
    cumulative("skills_kernel_cache_misses_total", "Cache reads that found nothing.", () => cache.counts().misses);
    cumulative(
      "skills_kernel_cache_errors_total",
      "Cache operations that failed, timed out or were refused.",
      () => cache.counts().errors,
    );
    new Gauge({
      name: "skills_kernel_cache_state",
      help: "1 for the cache backend's state (connected, degraded, reconnecting), 0 for the others.",
      labelNames: ["state"] as const,
      registers,
      collect() {
        for (const state of CACHE_STATES) this.set({ state }, cache.state === state ? 1 : 0);
      },
    });
  }
  const indexBuild = new Gauge({
    name: "skills_kernel_search_index_build_seconds",
    help: "How long the last full build of the search index took.",
    registers,
  });

  const uses = new Counter({
    name: "skills_kernel_skill_uses_total",
    help: "Uses of skills the usage plugin counted, by kind (search_hit, first_hit, read, fetch, install).",
    labelNames: ["kind"] as const,
    registers,
  });
  const misses = new Counter({
    name: "skills_kernel_search_misses_total",
    help: "Searches whose best result was weak, or that found nothing.",
    registers,
  });
  /** Per skill, `[source, name, kind]` keys: at most as many as maxSkillSeries skills make. */
  const bySkill = new Map<string, number>();
  const maxKeys = maxSkillSeries * Object.keys(USE_KINDS).length;

  const methodLabel = (method: string, outcome: McpRequestEnd) =>
    outcome.errorCode === METHOD_NOT_FOUND ? "unknown" : method;
  const toolLabel = (tool: string | undefined) => (tool === undefined ? "" : toolNames().has(tool) ? tool : "unknown");
  const codeLabel = (code: number) =>
    Number.isSafeInteger(code) && code >= MIN_RPC_CODE && code <= MAX_RPC_CODE ? String(code) : "other";

  return {
    registry,
    observer: {
      observe({ method, tool }) {
        const started = performance.now();
        return {
          end(outcome) {
            const labels = { method: methodLabel(method, outcome), tool: toolLabel(tool) };
            const failed =
              outcome.errorCode !== undefined
                ? codeLabel(outcome.errorCode)
                : outcome.toolError
                  ? "tool_error"
                  : undefined;
            const result = outcome.cancelled ? "cancelled" : failed === undefined ? "ok" : "error";
            requests.inc({ ...labels, outcome: result });
            if (failed !== undefined) errors.inc({ method: labels.method, code: failed });
            if (!outcome.cancelled) duration.observe(labels, (performance.now() - started) / 1000);
          },
        };
      },
    },
    searchIndexBuilt: (seconds) => indexBuild.set(seconds),
    skillUsed(skill, counter) {
      const kind = USE_KINDS[counter];
      if (kind === undefined) return;
      uses.inc({ kind });
      // A series per skill, kind and source, for small catalogs only: never one per query.
      const key = JSON.stringify([skill.source, skill.name, kind]);
      const held = bySkill.get(key);
      if (held !== undefined || bySkill.size < maxKeys) bySkill.set(key, (held ?? 0) + 1);
    },
    searchMissed: () => misses.inc(),
    async scrape(view) {
      // The per-source and per-skill series live in a registry of the scrape's own, filled from its view.
      const own = new Registry();
      sourceGauges(view, [own]);
      if (view !== undefined && view.list().length <= maxSkillSeries) skillSeries(view, bySkill, [own]);
      return Registry.merge([registry, own]).metrics();
    },
  };
}

/** Uses per skill, for the skills of the sources `view` shows. */
function skillSeries(view: CatalogView | undefined, counts: ReadonlyMap<string, number>, registers: Registry[]): void {
  const shown = new Set(view?.status().map((status) => status.source) ?? []);
  const series = new Counter({
    name: "skills_kernel_skill_uses_by_skill_total",
    help: "Uses of each skill the usage plugin counted, by source, skill and kind (only while the catalog is at most metrics' maxSkillSeries skills).",
    labelNames: ["source", "skill", "kind"] as const,
    registers,
  });
  for (const [key, count] of counts) {
    const [source, skill, kind] = JSON.parse(key) as [string, string, string];
    if (shown.has(source)) series.inc({ source, skill, kind }, count);
  }
}

/** Skills and state per source, for the sources `view` shows. */
function sourceGauges(view: CatalogView | undefined, registers: Registry[]): void {
  const status = view?.status() ?? [];
  const skills = new Gauge({
    name: "skills_kernel_source_skills",
    help: "Skills each source serves now.",
    labelNames: ["source"] as const,
    registers,
  });
  const states = new Gauge({
    name: "skills_kernel_source_state",
    help: "1 for the state each source is in (ok, stale, failed, loading), 0 for the others.",
    labelNames: ["source", "state"] as const,
    registers,
  });
  for (const source of status) {
    skills.set({ source: source.source }, source.skills);
    for (const state of SOURCE_STATES) states.set({ source: source.source, state }, source.state === state ? 1 : 0);
  }
}
