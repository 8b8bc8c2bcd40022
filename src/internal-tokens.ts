import { defineToken } from "./kernel/tokens.js";
import type { CatalogFor, ServerExtension } from "./kernel/types.js";
import type { HostLookup } from "./remote/address-guard.js";

/**
 * Redis as cache-redis connects to it, for figures of other plugins' own that are not cache
 * entries (usage counts): raw commands, failing at once while the connection is down.
 */
export interface RedisCommands {
  /** cache-redis's key prefix: every key written starts with it and a colon. */
  readonly prefix: string;
  /** Where Redis is, for messages: never a password. */
  readonly target: string;
  send(command: readonly string[]): Promise<unknown>;
}

/** Tokens between the kernel and built-in plugins, or two built-ins: not part of the public API. */
export const INTERNAL_TOKENS = {
  /**
   * How a caller's view of the catalog is made: provided by the catalog plugin and applied by the
   * kernel alone, to the `catalog` every handler gets (and `kernel.catalogFor`, embedders' door).
   * Any identity makes a view, so it is a whole-catalog service.
   */
  CallerCatalog: defineToken<CatalogFor>("caller-catalog", { wholeCatalog: true }),
  /**
   * Serves `skill://` files on a server through the SDK's SkillsExtension (skills-extension's),
   * once per server whoever asks first: skill-resources asks before registering its own template,
   * so the SDK's is registered first and answers every read, in whatever order the two are set up.
   */
  SkillFileServer: defineToken<ServerExtension>("skill-file-server"),
  /** How host names resolve for the sources add_skill opens (node:dns's lookup when absent; a test's). */
  HostLookup: defineToken<HostLookup>("host-lookup"),
  /** Provided by cache-redis: the usage plugin counts in the same Redis. */
  RedisCommands: defineToken<RedisCommands>("redis-commands"),
} as const;
