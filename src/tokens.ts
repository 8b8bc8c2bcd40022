import type { Cache, CacheMonitor } from "./kernel/cache.js";
import type { Logger } from "./kernel/logger.js";
import type { MetricsRecorder, RequestObserver } from "./kernel/request-observer.js";
import { defineToken } from "./kernel/tokens.js";
import type {
  CatalogFor,
  Identity,
  InstructionsSection,
  KernelTool,
  ListingTtl,
  ServerExtension,
  TransportDefinition,
} from "./kernel/types.js";
import type { WholeCatalog } from "./skills/catalog/catalog.js";
import type { SkillPolicy } from "./skills/policy.js";
import type { Ranker, CatalogSource } from "./skills/types.js";
import type { SourceVisibility } from "./skills/catalog/visibility.js";

/**
 * Every service name plugins use, the kernel's and the skill domain's, in one namespace. The
 * kernel itself resolves only its own (Logger to Transport); the skill domain's name what the
 * built-in plugins provide each other. Tokens between two built-ins only are in internal-tokens.ts.
 */
export const TOKENS = {
  /** The plugin's own logger (stderr only), prefixed with its name. */
  Logger: defineToken<Logger>("logger"),
  /** Multi-registration: each MCP tool a plugin contributes. */
  Tool: defineToken<KernelTool>("tool"),
  /** Multi-registration: hooks run on every McpServer built (resources, prompts). */
  ServerExtension: defineToken<ServerExtension>("server-extension"),
  /** Multi-registration: sections of the server's instructions, in boot order. */
  Instructions: defineToken<InstructionsSection>("instructions"),
  /**
   * The shared cache, scoped to the resolving plugin's namespace. Provided by a cache backend
   * plugin (cache-memory, cache-redis); consume it as optional where caching only saves work.
   */
  Cache: defineToken<Cache>("cache"),
  /** How the cache backend is doing (get_cache_stats, /readyz); provided beside Cache. */
  CacheMonitor: defineToken<CacheMonitor>("cache-monitor"),
  /**
   * How long what the server lists stays as it is, for the caching hints of 2026-07-28 results:
   * provided by the catalog, from what its sources say of their changes. Absent: 0 (no caching).
   */
  ListingTtl: defineToken<ListingTtl>("listing-ttl"),
  /**
   * How a caller's view of the skill catalog is made: provided by the catalog plugin, and applied
   * by the kernel to the `catalog` every handler gets. Absent: an empty catalog.
   */
  CallerCatalog: defineToken<CatalogFor>("caller-catalog"),
  /** Multi-registration: told of every MCP request of every server built (the metrics plugin). */
  RequestObserver: defineToken<RequestObserver>("request-observer"),
  /** Single, optional: figures a plugin reports for /metrics (provided by the metrics plugin). */
  MetricsRecorder: defineToken<MetricsRecorder>("metrics-recorder"),
  /**
   * Who a local client is (stdio, and the CLI's commands that call tools): the stdio plugin's
   * `identity` option, which a config chooses since nothing local signs in.
   */
  LocalCaller: defineToken<{ readonly identity?: Identity }>("local-caller"),
  /** Multi-registration: each transport a plugin contributes (stdio, http). */
  Transport: defineToken<TransportDefinition>("transport"),

  /**
   * Every skill of every source, whoever the caller: for what loads or watches the catalog, or
   * reports on all of it (readiness, metrics). What answers a caller reads `catalog` from its
   * context instead, already scoped to that caller. Named apart from the old `skill-catalog`, so
   * a plugin written against that fails to boot rather than show hidden skills.
   */
  WholeCatalog: defineToken<WholeCatalog>("whole-catalog"),
  /** Multi-registration: each skill source, in precedence order (config order). */
  CatalogSource: defineToken<CatalogSource>("skill-source"),
  /** Multi-registration: who may see a source (fs roots, git repositories, catalogs with `visibleTo`). */
  SourceVisibility: defineToken<SourceVisibility>("source-visibility"),
  /** The ranker search uses: provided by a ranker plugin, else search uses the default. */
  Ranker: defineToken<Ranker>("ranker"),
  /** What may be served and installed (audit mode, signatures): the skill-policy plugin's, else the default. */
  SkillPolicy: defineToken<SkillPolicy>("skill-policy"),
} as const;
