import type { Cache, CacheMonitor } from "./kernel/cache.js";
import type { Logger } from "./kernel/logger.js";
import type { MetricsRecorder, RequestObserver } from "./kernel/request-observer.js";
import { defineToken } from "./kernel/tokens.js";
import type {
  Identity,
  InstructionsSection,
  KernelTool,
  ListingTtl,
  ServerExtension,
  TransportDefinition,
} from "./kernel/types.js";
import type { HttpOptions, HttpRoute } from "./plugins/transports/http/index.js";
import type { WholeCatalog } from "./skills/catalog/catalog.js";
import type { SkillPopularity } from "./skills/catalog/summary-areas.js";
import type { SkillPolicy } from "./skills/policy.js";
import type { Ranker, CatalogSource } from "./skills/types.js";
import type { SourceVisibility } from "./skills/catalog/visibility.js";
import type { SkillUsage } from "./skills/usage/report.js";
import type { UsageStore } from "./skills/usage/store.js";

// The plugins booted for a token no plugin in the config provides, each loaded only then. Typed
// here: the plugins' own types name these tokens.
type Default = () => Promise<object>;
const cacheMemory: Default = async () => (await import("./plugins/caches/cache-memory/index.js")).default;
const rankerBm25: Default = async () => (await import("./plugins/rankers/ranker-bm25/index.js")).default;
const skillPolicy: Default = async () => (await import("./plugins/core/skill-policy/index.js")).default;
const catalog: Default = async () => (await import("./plugins/core/catalog/index.js")).default;
const stdio: Default = async () => (await import("./plugins/transports/stdio/index.js")).default;

/**
 * Every service name plugins use, the kernel's, the skill domain's and the http plugin's, in one
 * namespace. Each token carries how the kernel treats it (Token): the plugin booted when no plugin
 * provides it, whether each consumer gets its own, whether it holds hidden skills. Tokens only
 * built-ins share are in internal-tokens.ts.
 */
export const TOKENS = {
  /** The plugin's own logger (stderr only), prefixed with its name; needs no declaring. */
  Logger: defineToken<Logger>("logger", { scope: "plugin" }),
  /** Multi-registration: each MCP tool a plugin contributes. */
  Tool: defineToken<KernelTool>("tool"),
  /** Multi-registration: hooks run on every McpServer built (resources, prompts). */
  ServerExtension: defineToken<ServerExtension>("server-extension"),
  /** Multi-registration: sections of the server's instructions, in boot order. */
  Instructions: defineToken<InstructionsSection>("instructions"),
  /**
   * The shared cache, each consumer's under its own namespace (its name). Provided by a cache
   * backend plugin (cache-redis, or one of your own), else by cache-memory.
   */
  Cache: defineToken<Cache>("cache", { scope: "plugin", default: cacheMemory }),
  /** How the cache backend is doing (get_cache_stats, /readyz); provided beside Cache. */
  CacheMonitor: defineToken<CacheMonitor>("cache-monitor", { default: cacheMemory }),
  /**
   * How long what the server lists stays as it is, for the caching hints of 2026-07-28 results:
   * provided by the catalog, from what its sources say of their changes. Absent: 0 (no caching).
   */
  ListingTtl: defineToken<ListingTtl>("listing-ttl"),
  /** Multi-registration: told of every MCP request of every server built (the metrics plugin). */
  RequestObserver: defineToken<RequestObserver>("request-observer"),
  /** Single, optional: figures a plugin reports for /metrics (provided by the metrics plugin). */
  MetricsRecorder: defineToken<MetricsRecorder>("metrics-recorder"),
  /**
   * Who a local client is (stdio, and the CLI's commands that call tools): the stdio plugin's
   * `identity` option, which a config chooses since nothing local signs in.
   */
  LocalCaller: defineToken<{ readonly identity?: Identity }>("local-caller", { default: stdio }),
  /** Multi-registration: each transport a plugin contributes (stdio, http). */
  Transport: defineToken<TransportDefinition>("transport"),
  /** Multi-registration: each HTTP route beside MCP (rest-api, metrics), served by the http plugin. */
  HttpRoute: defineToken<HttpRoute>("http-route"),
  /** The http plugin's validated options, so an embedded handler and the routes serve as the config says. */
  HttpOptions: defineToken<HttpOptions>("http-options"),

  /**
   * Every skill of every source, whoever the caller (the catalog plugin's): for what loads or
   * watches the catalog, or reports on all of it (readiness, metrics). What answers a caller reads
   * `catalog` from its context instead, already scoped to that caller.
   */
  WholeCatalog: defineToken<WholeCatalog>("whole-catalog", { wholeCatalog: true, default: catalog }),
  /** Multi-registration: each skill source, in precedence order (config order). Read by the catalog alone. */
  CatalogSource: defineToken<CatalogSource>("skill-source", { wholeCatalog: true }),
  /** Multi-registration: who may see a source (fs roots, git repositories, catalogs with `visibleTo`). */
  SourceVisibility: defineToken<SourceVisibility>("source-visibility", { wholeCatalog: true }),
  /**
   * A ranker of the consumer's own, empty until it builds one (search_skills' holds what its
   * callers may see, and no other plugin reaches it): ranker-bm25's unless a ranker plugin
   * provides it.
   */
  Ranker: defineToken<Ranker>("ranker", { scope: "plugin", default: rankerBm25 }),
  /** What may be served and installed (audit mode, signatures): the skill-policy plugin's, with its defaults unless configured. */
  SkillPolicy: defineToken<SkillPolicy>("skill-policy", { default: skillPolicy }),
  /** Single, optional: how much callers use each skill, so the catalog summary's examples favour the most used. */
  SkillPopularity: defineToken<SkillPopularity>("skill-popularity", { wholeCatalog: true }),
  /**
   * Which skills are used and what was searched for in vain (the usage plugin's): reports hold
   * every caller's misses, and the figures of every skill the catalog a reader passes shows.
   */
  Usage: defineToken<SkillUsage>("usage", { wholeCatalog: true }),
  /**
   * Where the usage plugin keeps its figures, every skill's: a plugin providing it brings another
   * engine (else the cache folder, or Redis beside cache-redis).
   */
  UsageStore: defineToken<UsageStore>("usage-store", { wholeCatalog: true }),
} as const;
