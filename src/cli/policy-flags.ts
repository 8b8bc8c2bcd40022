import { resolve } from "node:path";
import type { ResolvedPluginEntry } from "../kernel/config.js";
import { builtinPlugins } from "../plugins/index.js";

export interface PolicyFlags {
  /** Already absolute. */
  readonly allowedSigners: string;
  readonly requireSigned: boolean;
}

/** `--allowed-signers FILE` resolved against the working directory. */
export function policyFlags(allowedSigners: string, requireSigned: boolean, cwd: string): PolicyFlags {
  return { allowedSigners: resolve(cwd, allowedSigners), requireSigned };
}

/**
 * The plugin list with skill-policy holding the flags: added when the config lists none, else its
 * own options kept for everything the flags do not set (its per-source audit modes).
 */
export function applyPolicyFlags(plugins: ResolvedPluginEntry[], flags: PolicyFlags): Promise<ResolvedPluginEntry[]> {
  return withPolicyOptions(plugins, "--allowed-signers", (base) => ({
    ...base,
    allowedSigners: flags.allowedSigners,
    ...(flags.requireSigned && { requireSigned: true }),
  }));
}

async function withPolicyOptions(
  plugins: ResolvedPluginEntry[],
  origin: string,
  change: (base: Record<string, unknown>) => Record<string, unknown>,
): Promise<ResolvedPluginEntry[]> {
  const configured = plugins.find((entry) => entry.plugin.name === "skill-policy");
  const base =
    typeof configured?.options === "object" && configured.options !== null
      ? (configured.options as Record<string, unknown>)
      : {};
  const options = change(base);
  if (!configured) return [{ plugin: await builtinPlugins["skill-policy"]!(), options, origin }, ...plugins];
  return plugins.map((entry) => (entry === configured ? { ...entry, options } : entry));
}
