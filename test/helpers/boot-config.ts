import { resolvePluginEntries } from "../../src/config/plugin-resolver.js";
import type { Plugin } from "../../src/kernel/types.js";
import type { SkillsKernelConfig } from "../../src/kernel/config.js";
import { type BootOptions, bootKernel, type Kernel } from "../../src/kernel/kernel.js";

/**
 * bootKernel over a config's entries, loaded as createKernel loads them but with only the
 * built-ins given: the kernel's own tests, without the composition root's defaults.
 */
export async function bootConfig(
  config: SkillsKernelConfig,
  options: Omit<BootOptions, "plugins" | "config"> & {
    readonly builtins?: Readonly<Record<string, () => Promise<Plugin<any>>>>;
  } = {},
): Promise<Kernel> {
  const { builtins = {}, ...rest } = options;
  const plugins = await resolvePluginEntries(config.plugins ?? [], {
    baseDir: options.baseDir ?? process.cwd(),
    builtins,
    source: options.configSource ?? "config",
  });
  return bootKernel({ ...rest, config, plugins });
}
