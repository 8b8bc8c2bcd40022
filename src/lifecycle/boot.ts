import type { SkillsKernelConfig } from "../kernel/config.js";
import type { Logger } from "../kernel/logger.js";
import { defineToken } from "../kernel/tokens.js";
import type { WholeCatalog } from "../skills/catalog/catalog.js";

/** What opening a source needs of a kernel: its whole catalog, and a way to close it. */
export interface SourceKernel {
  readonly catalog: WholeCatalog;
  close(): Promise<void>;
}

/**
 * Boots a kernel over a config, so a source is opened as the server would serve it. The lifecycle
 * is given one and never imports the composition root: the CLI passes createKernel, and a running
 * kernel offers its own under BOOT_KERNEL (add_skill, check_outdated_skills).
 */
export type BootKernel = (options: {
  readonly config: SkillsKernelConfig;
  readonly baseDir: string;
  readonly configSource: string;
  readonly logger: Logger;
}) => Promise<SourceKernel>;

/** Provided by the composition root (src/create-kernel.ts) to every kernel it boots. */
export const BOOT_KERNEL = defineToken<BootKernel>("boot-kernel");
