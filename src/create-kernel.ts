import { bootKernel, type Kernel, type KernelOptions } from "./kernel/kernel.js";
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
 * catalog and the stdio transport are handed to it.
 */
export async function createKernel(options: Omit<KernelOptions, "builtins" | "corePlugins"> = {}): Promise<SkillsKernel> {
  const kernel = await bootKernel({ ...options, builtins: builtinPlugins, corePlugins: [catalogPlugin, stdioPlugin] });
  return Object.assign(kernel, { catalog: kernel.resolve(SKILL_TOKENS.SkillCatalog) });
}
