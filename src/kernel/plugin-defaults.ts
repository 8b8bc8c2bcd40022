import { KERNEL_COLLECTED, refToken } from "./declarations.js";
import { PluginError } from "./errors.js";
import type { ResolvedPluginEntry } from "./config.js";
import { isToken, tokenName } from "./tokens.js";
import type { Plugin, ServiceRef } from "./types.js";

/**
 * The plugin list with the default provider of every consumed token that no plugin in it provides
 * (Token.default) put first, unless it would provide another service already provided; a
 * default's own consumes are followed in turn. `kernelConsumes`, what the code that boots the
 * kernel resolves from it (the composition root's catalog), are followed first, as a consumer of
 * its own. Every consumer of a token, required or optional, so gets the same service.
 */
export async function withDefaultProviders(
  plugins: readonly ResolvedPluginEntry[],
  kernelConsumes: readonly ServiceRef[] = [],
): Promise<ResolvedPluginEntry[]> {
  const defaults: ResolvedPluginEntry[] = [];
  const walk = [...plugins];
  const provided = (key: symbol) =>
    walk.some(
      (entry) => Array.isArray(entry.plugin.provides) && entry.plugin.provides.some((token) => token?.key === key),
    );
  // What the kernel collects (transports, tools) many plugins provide side by side: no clash.
  const clashes = (key: symbol) => !KERNEL_COLLECTED.has(key) && provided(key);
  const follow = async (consumer: string, refs: readonly ServiceRef[]) => {
    for (const ref of refs) {
      // A malformed ref is the contract check's to report, after this.
      const token = isToken(ref) || isToken((ref as { token?: unknown })?.token) ? refToken(ref) : undefined;
      if (!token?.default || provided(token.key)) continue;
      const plugin = (await token.default()) as Plugin<any>;
      if (!Array.isArray(plugin.provides) || !plugin.provides.some((own) => own?.key === token.key)) {
        throw new PluginError(
          consumer,
          `the default for "${tokenName(token)}", plugin "${plugin.name}", does not provide it`,
        );
      }
      // A default that would provide a service some plugin already provides would clash with it:
      // the consumer then goes without (an optional ref) or the boot fails naming the missing service.
      if (plugin.provides.some((own) => clashes(own.key))) continue;
      const entry = { plugin, options: undefined, origin: `default of ${tokenName(token)}` };
      defaults.push(entry);
      walk.push(entry);
    }
  };
  await follow("kernel", kernelConsumes);
  for (let i = 0; i < walk.length; i++) await follow(walk[i]!.plugin.name, walk[i]!.plugin.consumes ?? []);
  return [...defaults, ...plugins];
}
