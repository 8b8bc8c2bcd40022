import { withDefaultCache } from "./cache/default-cache.js";
import { bootKernel, type Kernel, type KernelOptions } from "./kernel/kernel.js";
import cacheMemoryPlugin from "./plugins/cache-memory/index.js";
import catalogPlugin from "./plugins/catalog/index.js";
import { builtinPlugins } from "./plugins/index.js";
import stdioPlugin from "./plugins/stdio/index.js";
import type { SkillCatalog } from "./skills/catalog.js";
import { SKILL_TOKENS } from "./skills/tokens.js";

/** A kernel serving skills: the kernel, with the catalog every skills plugin shares at hand. */
export interface SkillsKernel extends Kernel {
  readonly catalog: SkillCatalog;
}

/**
 * The composition root: the kernel knows no plugin, so this is where the built-in plugins, the
 * catalog, the stdio transport and the default cache (cache-memory, unless the config names
 * another cache) are handed to it.
 */
export async function createKernel(options: Omit<KernelOptions, "builtins" | "corePlugins"> = {}): Promise<SkillsKernel> {
  const { adjustPlugins } = options;
  const kernel = await bootKernel({
    ...options,
    builtins: builtinPlugins,
    corePlugins: [catalogPlugin, stdioPlugin],
    adjustPlugins: async (plugins) => withDefaultCache(adjustPlugins ? await adjustPlugins(plugins) : plugins, cacheMemoryPlugin),
  });
  return Object.assign(kernel, { catalog: kernel.resolve(SKILL_TOKENS.SkillCatalog) });
}
