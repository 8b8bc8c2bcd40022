import { PluginError } from "./errors.js";
import type { ResolvedPluginEntry } from "./plugin-resolver.js";
import { tokenName, type Token } from "./tokens.js";

/**
 * The plugin list with the default provider of every consumed service that no plugin in it
 * provides (a ServiceRef's `default`) put first, unless it would provide another service already
 * provided; a default's own consumes are followed in turn. The first consumer naming a default
 * for a token decides which plugin it is.
 */
export async function withDefaultProviders(plugins: readonly ResolvedPluginEntry[]): Promise<ResolvedPluginEntry[]> {
  const defaults: ResolvedPluginEntry[] = [];
  const walk = [...plugins];
  const provided = (token: Token<unknown>) => walk.some((entry) => entry.plugin.provides?.includes(token));
  for (let i = 0; i < walk.length; i++) {
    const consumer = walk[i]!.plugin;
    for (const ref of consumer.consumes ?? []) {
      if (typeof ref === "symbol" || !ref.default || provided(ref.token)) continue;
      const plugin = await ref.default();
      if (!plugin.provides?.includes(ref.token)) {
        throw new PluginError(consumer.name, `the default for "${tokenName(ref.token)}", plugin "${plugin.name}", does not provide it`);
      }
      // A default that would provide a service some plugin already provides would clash with it:
      // the consumer then goes without (an optional ref) or the boot fails naming the missing service.
      if (plugin.provides.some(provided)) continue;
      const entry = { plugin, options: undefined, origin: `default of ${tokenName(ref.token)}` };
      defaults.push(entry);
      walk.push(entry);
    }
  }
  return [...defaults, ...plugins];
}
