import { resolve } from "node:path";
import type { ResolvedPluginEntry } from "../kernel/config.js";

export interface DiskCacheFlags {
  /** `--cache-dir DIR`, relative to the working folder. */
  readonly dir?: string;
  /** `--no-disk-cache`. */
  readonly off: boolean;
}

/** The built-in plugins that keep files in the cache folder, and whether they take `diskCache`. */
const CACHE_FOLDER_PLUGINS: Readonly<Record<string, { readonly diskCache: boolean }>> = {
  fs: { diskCache: true },
  "search-skills": { diskCache: true },
  "catalog-summary": { diskCache: true },
  usage: { diskCache: true },
  "ranker-semantic": { diskCache: true },
  git: { diskCache: false },
  github: { diskCache: false },
  "http-catalog": { diskCache: false },
  registry: { diskCache: false },
};

/** Whether any disk cache flag was given. */
export function hasDiskCacheFlags(flags: DiskCacheFlags): boolean {
  return flags.dir !== undefined || flags.off;
}

/**
 * The plugin list with the flags set as options of the built-in plugins that keep files in the
 * cache folder (a config's own options for them are kept beside): `cacheDir` for every one of
 * them, `diskCache: false` for the fs source's snapshots, search_skills' index, the kept
 * catalog summary, the usage figures and the semantic ranker's vectors.
 */
export async function applyDiskCacheFlags(
  plugins: ResolvedPluginEntry[],
  flags: DiskCacheFlags,
  cwd: string,
): Promise<ResolvedPluginEntry[]> {
  return plugins.map((entry) => {
    const takes = CACHE_FOLDER_PLUGINS[entry.plugin.name];
    if (!takes) return entry;
    const base = typeof entry.options === "object" && entry.options !== null ? entry.options : {};
    return {
      ...entry,
      options: {
        ...base,
        ...(flags.dir !== undefined && { cacheDir: resolve(cwd, flags.dir) }),
        ...(flags.off && takes.diskCache && { diskCache: false }),
      },
    };
  });
}
