import { TOKENS } from "../../../tokens.js";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { errorMessage, PluginError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import { createDiskCache } from "../../../remote/disk-cache.js";
import { visibilitySchema } from "../../../skills/catalog/visibility.js";
import { groupRoots, type ResolvedRoot } from "./roots.js";
import { createSnapshotStore } from "./snapshot-store.js";
import { createFsSource } from "./source.js";
import { defaultWatchLimit } from "./watch-limit.js";

const KiB = 1024;
/** Room for the snapshots of a few large roots (docs/caching.md has their sizes). */
const DISK_CACHE_BYTES = 256 * KiB * KiB;

// Strict objects: a misspelt option (`maxdepth`) is a config error, not a silently ignored key.
const rootSchema = z.union([
  z.string().min(1),
  z.strictObject({
    path: z.string().min(1),
    /** Roots with the same source form one source, in the order given. */
    source: z.string().min(1).optional(),
    /**
     * A missing optional root does not fail the boot (e.g. ~/.claude/skills): it stays in its
     * source and is scanned once it exists.
     */
    optional: z.boolean().optional(),
    /** Who sees this root's skills (docs/security.md#per-team-visibility); every root of one source says the same. */
    visibleTo: visibilitySchema.optional(),
    /**
     * Follow a symlinked skill folder even when it leads out of this source's roots
     * (`ln -s ~/src/my-skill ~/.claude/skills/`). Off: a folder someone else can write to (a
     * cloned project's .claude/skills) could link to any skill on the disk, or another team's.
     */
    followLinksOut: z.boolean().optional(),
  }),
]);

export const fsOptionsSchema = z.strictObject({
  /** Folders to scan; relative paths resolve against the config file's folder, `~` to home. */
  roots: z.array(rootSchema).min(1),
  /**
   * Folder levels below each root to serve skills from; 0 looks at the root folder alone. Deep
   * enough for a root holding collections of cloned repositories (skills/(category)/<name>/,
   * skills nested in other skills' references/); skills below it are reported with a warning.
   */
  maxDepth: z.number().int().min(0).default(12),
  /**
   * Folders listed per root at most. A root with more is not served at all, with an error that
   * names this option: serving part of a catalog would hide which part is missing.
   */
  maxDirectories: z.number().int().min(1).default(1_000_000),
  /** Larger frontmatter is refused before parsing: YAML parsing time grows faster than size. */
  maxFrontmatterBytes: z
    .number()
    .int()
    .min(1)
    .default(64 * KiB),
  /** The head of each SKILL.md that is read; the frontmatter must close within it. */
  maxSkillFileBytes: z
    .number()
    .int()
    .min(1)
    .default(256 * KiB),
  /** Follow the roots while serving: skills added, changed or removed are picked up live. */
  watch: z.boolean().default(true),
  /**
   * Each watched folder takes one inotify watch, from a per-user limit shared with every editor
   * and tool the user runs: past this many, the remaining folders are polled instead. Default:
   * three quarters of that limit on Linux (defaultWatchLimit), 2000 elsewhere.
   */
  maxWatchedDirectories: z.number().int().min(0).optional(),
  /** How often polled folders and skill files are checked, at the least (many are checked less often). */
  pollIntervalMs: z.number().int().min(100).default(2000),
  /**
   * Where the roots' snapshots are kept when the cache does not outlive the process (the default
   * in-process one): relative to the config's folder, `~` to home. Default: the user's cache folder.
   */
  cacheDir: z.string().min(1).optional(),
  /** False: with the in-process cache, keep no snapshot on disk (every start lists and reads the roots). */
  diskCache: z.boolean().default(true),
  /** The most bytes the snapshots on disk take together; past it, the oldest written go. */
  maxDiskCacheBytes: z.number().int().min(1).default(DISK_CACHE_BYTES),
});

/** Serves the skills found in folders on disk, one skill source per `source` name. */
export default definePlugin({
  name: "fs",
  provides: [TOKENS.CatalogSource, TOKENS.SourceVisibility],
  consumes: [TOKENS.Cache, { token: TOKENS.CacheMonitor, optional: true }],
  options: fsOptionsSchema,
  async setup(ctx, options) {
    const {
      roots: configured,
      maxWatchedDirectories = defaultWatchLimit(),
      cacheDir,
      diskCache,
      maxDiskCacheBytes,
      ...limits
    } = options;
    // Every root is checked, in the order configured, before any source is added: a bad root
    // fails the boot cleanly, and the error always names the first bad one.
    const sources: { name: string; roots: string[]; optionalRoots: string[]; followLinksOut: string[] }[] = [];
    for (const group of groupRoots(configured, ctx.baseDir, homedir())) {
      const [first] = group.roots;
      if (group.roots.some((root) => JSON.stringify(root.visibleTo) !== JSON.stringify(first?.visibleTo))) {
        throw new PluginError(
          ctx.name,
          `the roots of source "${group.source}" differ in visibleTo: a source is seen by one set of callers; give them one visibleTo, or different sources`,
          { exitCode: 2 },
        );
      }
      if (first?.visibleTo) ctx.contribute(TOKENS.SourceVisibility, { name: group.source, visibleTo: first.visibleTo });
      const roots: string[] = [];
      const optionalRoots: string[] = [];
      const followLinksOut: string[] = [];
      for (const root of group.roots) {
        const state = await checkRoot(root, ctx.logger);
        if (state === "skip") continue;
        roots.push(root.path);
        if (state === "absent") optionalRoots.push(root.path);
        if (root.followLinksOut) followLinksOut.push(root.path);
      }
      if (roots.length > 0) sources.push({ name: group.source, roots, optionalRoots, followLinksOut });
    }
    // Snapshots kept in a cache that dies with the process would duplicate what each source keeps
    // between its own loads: a cache that outlives the process (Redis) holds them, else files in
    // the user's cache folder do, through the same store.
    const cache = ctx.resolveOptional(TOKENS.Cache);
    const monitor = ctx.resolveOptional(TOKENS.CacheMonitor);
    const shared = cache && (monitor?.persistent ?? true) ? cache : undefined;
    const store =
      shared ??
      (diskCache
        ? createDiskCache(join(cacheRoot(cacheDir, ctx.baseDir), "snapshots"), ctx.name, {
            maxBytes: maxDiskCacheBytes,
          })
        : undefined);
    const snapshots = store
      ? createSnapshotStore(store, limits, ctx.logger, { compress: shared !== undefined })
      : undefined;
    // Redis back after a restart may have lost the snapshots: each source checks and writes its own again.
    const onCacheReady = shared ? monitor?.onReady?.bind(monitor) : undefined;
    for (const { name, roots, optionalRoots, followLinksOut } of sources) {
      ctx.contribute(
        TOKENS.CatalogSource,
        createFsSource({
          name,
          roots,
          optionalRoots,
          followLinksOut,
          ...limits,
          maxWatchedDirectories,
          logger: ctx.logger,
          snapshots,
          probeSnapshots: shared !== undefined,
          onCacheReady,
          loadInSlices: !ctx.inProcessOnly,
          blockingReads: ctx.inProcessOnly,
        }),
      );
    }
    // Stopped before the cache is (plugins stop in reverse order): a snapshot still being written
    // is handed over whole, and the cache's own stop lets it land.
    return snapshots ? { stop: () => snapshots.flush() } : undefined;
  },
});

/**
 * "ok" for a folder. An optional root that does not exist yet is "absent": it is kept, so that a
 * later mkdir or install is picked up; one that exists but is no folder is skipped. A required
 * root that is not a folder throws.
 */
async function checkRoot(root: ResolvedRoot, logger: Logger): Promise<"ok" | "absent" | "skip"> {
  let problem: string;
  let missing = false;
  try {
    if ((await stat(root.path)).isDirectory()) return "ok";
    problem = "is not a directory";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    missing = code === "ENOENT" || code === "ENOTDIR";
    problem = missing ? "does not exist" : `cannot be read: ${errorMessage(error)}`;
  }
  if (!root.optional) throw new PluginError("fs", `root ${root.path} ${problem}`, { exitCode: 2 });
  if (missing) {
    logger.debug(`optional root ${root.path} does not exist yet; it is scanned once it does`);
    return "absent";
  }
  logger.debug(`skipping optional root ${root.path}: it ${problem}`);
  return "skip";
}

// The fs plugin's public face to the rest of the project: the git source serves a checkout with
// it, and the CLI's folder commands scan and read skill folders the way this source does.
export { createFsSource } from "./source.js";
export { createSkillFiles } from "./files.js";
export { scanRoot, type SkillFolder } from "./scan.js";
