import { join } from "node:path";
import type { Logger } from "../../../kernel/logger.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import type { SkillKey } from "../../../skills/usage/buckets.js";
import { FileUsageStore } from "./file-store.js";
import { UsageService } from "./service.js";

/** Where the in-process store keeps its figures: `usage/usage.json` in the cache folder. */
export function usageFile(cacheDir: string | undefined, baseDir: string): string {
  return join(cacheRoot(cacheDir, baseDir), "usage", "usage.json");
}

/** The usage plugin's defaults, for counting with no config (the CLI's add). */
export interface LocalCountDefaults {
  readonly retentionDays: number;
  readonly maxEntries: number;
  readonly timeoutMs: number;
}

/**
 * Counts installs made with no config and no server (`skills-kernel add`) into the store of the
 * user's cache folder, where a local server's figures are: for the person at the terminal, so as
 * an anonymous caller. A file that cannot be written loses them, with one warning.
 */
export async function countLocalInstalls(
  skills: readonly SkillKey[],
  defaults: LocalCountDefaults,
  logger: Logger,
): Promise<void> {
  if (skills.length === 0) return;
  const file = new FileUsageStore(usageFile(undefined, process.cwd()), defaults.maxEntries, Date.now, logger);
  const service = new UsageService({
    store: file,
    opened: Promise.resolve(),
    retentionDays: defaults.retentionDays,
    recordQueries: false,
    operatorScope: "",
    rankDays: 1,
    maxMissesPerDay: 0,
    maxPendingFields: defaults.maxEntries,
    writeTimeoutMs: defaults.timeoutMs,
    visibilities: () => [],
    metrics: undefined,
    logger,
    now: Date.now,
  });
  for (const skill of skills) service.installed(skill);
  await service.flush();
  await file.save();
}
