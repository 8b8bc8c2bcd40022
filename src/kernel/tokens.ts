import type { Cache, CacheMonitor } from "./cache.js";
import type { Logger } from "./logger.js";
import type { MetricsRecorder, RequestObserver } from "./request-observer.js";
import type { CatalogFor, Identity, InstructionsSection, KernelTool, ListingTtl, ServerExtension, TransportDefinition } from "./types.js";

declare const carries: unique symbol;

/**
 * A service name that carries the type of what it names. It is a `Symbol.for` key, not a plain
 * symbol, so a plugin built against its own copy of skills-kernel (an npm plugin with a nested
 * install, or the CLI's bundle next to a config's import) still names the kernel's services.
 */
export type Token<T> = symbol & { readonly [carries]?: T };

/** Make a token; `name` must be unique across everything loaded into the process. */
export function defineToken<T>(name: string): Token<T> {
  return Symbol.for(`skills-kernel:${name}`) as Token<T>;
}

/** The name a token was made with, for messages. */
export function tokenName(token: Token<unknown>): string {
  return token.description?.replace(/^skills-kernel:/, "") ?? "?";
}

/** The kernel's own services. The skill domain's are in src/skills/tokens.ts. */
export const KERNEL_TOKENS = {
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
} as const;
