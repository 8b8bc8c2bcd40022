import { parseRedisUrl } from "../cache/redis-url.js";
import { ConfigError } from "../kernel/errors.js";
import type { ResolvedPluginEntry } from "../kernel/config.js";
import { builtinPlugins } from "../plugins/index.js";
import { TOKENS } from "../tokens.js";

/** `--cache memory` or `--cache redis://HOST:PORT[/DB]`, checked. */
export type CacheChoice = { readonly backend: "memory" } | { readonly backend: "redis"; readonly url: string };

export function parseCacheFlag(value: string): CacheChoice {
  if (value === "memory") return { backend: "memory" };
  if (!/^rediss?:/.test(value))
    throw new ConfigError(`--cache must be "memory" or a redis://HOST:PORT[/DB] URL, not "${value.slice(0, 100)}"`);
  try {
    return { backend: "redis", url: parseRedisUrl(value).url };
  } catch (error) {
    throw new ConfigError(`--cache: ${(error as Error).message}`);
  }
}

/**
 * The plugin list with the cache the flag chose in place of whichever the config had. A config's
 * own options for that same plugin are kept (the flag sets only the URL).
 */
export async function applyCacheChoice(
  plugins: ResolvedPluginEntry[],
  choice: CacheChoice,
): Promise<ResolvedPluginEntry[]> {
  const name = choice.backend === "memory" ? "cache-memory" : "cache-redis";
  const configured = plugins.find((entry) => entry.plugin.name === name);
  const base = typeof configured?.options === "object" && configured.options !== null ? configured.options : {};
  const options = choice.backend === "redis" ? { ...base, url: choice.url } : configured?.options;
  const plugin = configured?.plugin ?? (await builtinPlugins[name]!());
  const others = plugins.filter((entry) => !entry.plugin.provides?.includes(TOKENS.Cache));
  return [{ plugin, options, origin: "--cache" }, ...others];
}
