import type { SkillsKernelConfig } from "../kernel/config.js";
import { ConfigError } from "../kernel/errors.js";
import { misnamedPlugin, namedPluginEntries } from "./plugin-resolver.js";
import type { Plugin } from "../kernel/types.js";

/** The one transport that opens no listener: the one an MCP host starts the server on. */
const LOCAL_TRANSPORT = "stdio";

/**
 * Refuses a config found by searching that would run code (names a plugin module) or reach out
 * (docs/configuration.md#trust): set a transport other than stdio, list a plugin whose
 * `needsTrust.plugin` is set, or set an option its `needsTrust.options` names. Only built-in
 * plugins are loaded to read their declarations; nothing is set up or connected.
 */
export async function refuseUntrusted(
  config: SkillsKernelConfig,
  file: string,
  builtins: Readonly<Record<string, () => Promise<Plugin<any>>>>,
  hint: string,
  baseDir: string,
): Promise<void> {
  const refuse = (what: string) => new ConfigError(`${file} was found by searching and ${what}: ${hint}`);
  const entries = namedPluginEntries(config.plugins ?? [], file);
  const modules = entries.map(({ ref }) => ref).filter((ref) => !Object.hasOwn(builtins, ref));
  for (const ref of modules) {
    const misnamed = await misnamedPlugin(ref, { builtins, baseDir, source: file });
    if (misnamed) throw new ConfigError(`${file}: ${misnamed}`);
  }
  if (modules.length > 0) {
    const named = modules.map((ref) => JSON.stringify(ref)).join(", ");
    const one = modules.length === 1;
    throw refuse(`names plugin module${one ? "" : "s"} ${named}, which run${one ? "s" : ""} code`);
  }
  if (config.transport !== undefined && config.transport !== LOCAL_TRANSPORT) {
    throw refuse(
      `sets transport ${JSON.stringify(config.transport)} (a transport other than ${LOCAL_TRANSPORT} opens a listener)`,
    );
  }
  for (const { ref, options } of entries) {
    const { needsTrust } = await builtins[ref]!();
    if (!needsTrust) continue;
    if (needsTrust.plugin !== undefined) throw refuse(`lists plugin "${ref}" (${needsTrust.plugin})`);
    const set = typeof options === "object" && options !== null ? Object.keys(options) : [];
    const reasons = Object.entries(needsTrust.options ?? {}).filter(([option]) => set.includes(option));
    if (reasons.length === 0) continue;
    const described = reasons.map(([option, why]) => `option ${option} (${why})`).join(" and ");
    throw refuse(`sets plugin "${ref}" ${described}`);
  }
}
