import { KERNEL_COLLECTED } from "./declarations.js";
import { PluginError } from "./errors.js";
import type { ResolvedPluginEntry } from "./plugin-resolver.js";
import { tokenName, type Token } from "./tokens.js";
import type { ServiceRef } from "./types.js";

/**
 * The plugin list with the default provider of every consumed service that no plugin in it
 * provides (a ServiceRef's `default`) put first, unless it would provide another service already
 * provided; a default's own consumes are followed in turn. `kernelConsumes`, what the code that
 * boots the kernel resolves from it (the composition root's catalog), are followed first, as a
 * consumer of its own. The first consumer naming a default for a token decides which plugin it is.
 */
export async function withDefaultProviders(
  plugins: readonly ResolvedPluginEntry[],
  kernelConsumes: readonly ServiceRef[] = [],
): Promise<ResolvedPluginEntry[]> {
  const defaults: ResolvedPluginEntry[] = [];
  const walk = [...plugins];
  const provided = (token: Token<unknown>) => walk.some((entry) => entry.plugin.provides?.includes(token));
  // What the kernel collects (transports, tools) many plugins provide side by side: no clash.
  const clashes = (token: Token<unknown>) => !KERNEL_COLLECTED.has(token) && provided(token);
  const follow = async (consumer: string, refs: readonly ServiceRef[]) => {
    for (const ref of refs) {
      if (typeof ref === "symbol" || !ref.default || provided(ref.token)) continue;
      const plugin = await ref.default();
      if (!plugin.provides?.includes(ref.token)) {
        throw new PluginError(
          consumer,
          `the default for "${tokenName(ref.token)}", plugin "${plugin.name}", does not provide it`,
        );
      }
      // A default that would provide a service some plugin already provides would clash with it:
      // the consumer then goes without (an optional ref) or the boot fails naming the missing service.
      if (plugin.provides.some(clashes)) continue;
      const entry = { plugin, options: undefined, origin: `default of ${tokenName(ref.token)}` };
      defaults.push(entry);
      walk.push(entry);
    }
  };
  await follow("kernel", kernelConsumes);
  for (let i = 0; i < walk.length; i++) await follow(walk[i]!.plugin.name, walk[i]!.plugin.consumes ?? []);
  return [...defaults, ...plugins];
}
