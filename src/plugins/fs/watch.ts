import { watch as watchFolder, type FSWatcher, type WatchEventType } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { clearTimeout, setTimeout } from "node:timers";
import { errorMessage } from "../../kernel/errors.js";
import { createLogger, type Logger } from "../../kernel/logger.js";
import { mapLimit } from "./map-limit.js";
import { scanRoot, SKILL_FILES, SKIPPED_FOLDERS } from "./scan.js";

export interface WatchSettings {
  /** The source's name, for log lines. */
  readonly name: string;
  readonly roots: readonly string[];
  readonly maxDepth: number;
  readonly maxDirectories: number;
  /** Folders past this many are polled instead. */
  readonly maxWatchedDirectories: number;
  readonly pollIntervalMs: number;
  readonly logger: Logger;
}

// Events come in bursts (an editor's save, a git checkout): one rescan shortly after the first
// event covers the burst, and events during a rescan queue exactly one more.
const RESCAN_DELAY_MS = 50;

const STAT_CONCURRENCY = 16;

// The per-user limits on inotify watches and open files: every further fs.watch would fail too.
const EXHAUSTED = new Set(["ENOSPC", "EMFILE", "ENFILE"]);
const GONE = new Set(["ENOENT", "ENOTDIR"]);

// The load that follows a change reports what the scan finds; the watcher's own scans stay quiet.
const QUIET = createLogger("silent");

type Relevance = (event: WatchEventType, entry: string | null) => boolean;

interface Watched {
  readonly watcher: FSWatcher;
}

interface Polled {
  readonly path: string;
  /** The last stat seen (signature()). */
  signature: string;
}

type Target = Watched | Polled;

/**
 * Calls `onChange` whenever what a load of `roots` finds may have changed; returns the function
 * that stops. It watches, without `recursive` (which Node 20 on Linux emulates, and Bun and Deno
 * implement differently), every folder a scan lists, the same walk as a load; a skill folder's
 * watcher sees its SKILL.md change. After each change it scans again, so the watched folders
 * follow the tree. A root that does not exist is awaited through the nearest folder above it.
 * Past maxWatchedDirectories, or where fs.watch fails, folders (and their skill files) are polled.
 */
export function watchRoots(settings: WatchSettings, onChange: () => void): () => void {
  const watch = new RootsWatch(settings, onChange);
  void watch.rescan();
  return () => watch.stop();
}

class RootsWatch {
  readonly #settings: WatchSettings;
  readonly #onChange: () => void;
  /** By `dir:<folder>`, `file:<skill file>` or `above:<folder>:<entry>` (a missing root's way down). */
  readonly #targets = new Map<string, Target>();
  /** Folders fs.watch refused for a reason of their own (permissions): polled from then on. */
  readonly #refused = new Set<string>();
  readonly #abort = new AbortController();
  #watchers = 0;
  /** The error code that ended watching for good, if one did. */
  #exhausted: string | undefined;
  #capped = false;
  #mode = "";
  #rescanTimer: NodeJS.Timeout | undefined;
  #scanning = false;
  #rescanAgain = false;
  #pollTimer: NodeJS.Timeout | undefined;
  #polling = false;
  #stopped = false;

  constructor(settings: WatchSettings, onChange: () => void) {
    this.#settings = settings;
    this.#onChange = onChange;
  }

  async rescan(): Promise<void> {
    this.#rescanTimer = undefined;
    this.#scanning = true;
    this.#rescanAgain = false;
    try {
      await this.#sync();
    } catch (error) {
      if (!this.#stopped) this.#settings.logger.warn(`${this.#settings.name}: cannot scan for changes: ${errorMessage(error)}`);
    } finally {
      this.#scanning = false;
    }
    if (this.#rescanAgain) this.#requestRescan();
    this.#schedulePoll();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#abort.abort();
    clearTimeout(this.#rescanTimer);
    clearTimeout(this.#pollTimer);
    for (const key of [...this.#targets.keys()]) this.#drop(key);
    this.#settings.logger.debug(`${this.#settings.name}: stopped watching`);
  }

  /** One walk of every root: arm what it lists, drop what it no longer does. */
  async #sync(): Promise<void> {
    const { roots, maxDepth, maxDirectories } = this.#settings;
    const seen = new Set<string>();
    let fresh = 0;
    // Roots one after the other, each breadth first: when watchers run short, the same shallow
    // folders get them every time.
    for (const root of roots) {
      let found = false;
      const scan = await scanRoot(root, {
        maxDepth,
        maxDirectories,
        logger: QUIET,
        signal: this.#abort.signal,
        onDirectory: async (dir) => {
          found = true;
          if (await this.#track(`dir:${dir}`, seen, dir, { dir, relevant: inFolder })) fresh++;
        },
      });
      if (this.#stopped) return;
      // In-place writes leave a folder's mtime alone: a polled skill folder's SKILL.md is polled too.
      for (const folder of scan.folders) {
        if (!isPolled(this.#targets.get(`dir:${folder.dir}`))) continue;
        if (await this.#track(`file:${folder.file}`, seen, folder.file)) fresh++;
      }
      if (!found && (await this.#awaitRoot(root, seen))) fresh++;
    }
    if (this.#stopped) return;
    for (const key of [...this.#targets.keys()]) if (!seen.has(key)) this.#drop(key);
    this.#report();
    // A load that listed these folders before they were armed may have missed a change in them.
    if (fresh > 0) this.#notify();
  }

  /**
   * A root that cannot be scanned (not created yet, or deleted) is awaited through the nearest
   * folder above it that exists, for the entry on the way down.
   */
  async #awaitRoot(root: string, seen: Set<string>): Promise<boolean> {
    let next = root;
    let above = dirname(root);
    // Bounded by the root's depth: the walk ends at the filesystem root at the latest.
    while (above !== next && !(await isDirectory(above))) {
      next = above;
      above = dirname(above);
    }
    const entry = basename(next);
    const relevant: Relevance = (_event, name) => name === null || name === entry;
    const fresh = await this.#track(`above:${above}:${entry}`, seen, root, { dir: above, relevant });
    // The entry may have appeared between the scan and the watcher: then scan again, once.
    if (fresh && (await isDirectory(next))) this.#requestRescan();
    return fresh;
  }

  /** Watches or polls a path this walk needs; true when it was not followed before. */
  async #track(key: string, seen: Set<string>, pollPath: string, watch?: { dir: string; relevant: Relevance }): Promise<boolean> {
    if (seen.has(key)) return false;
    seen.add(key);
    if (this.#stopped || this.#targets.has(key)) return false;
    const watcher = watch && this.#watch(key, watch.dir, watch.relevant);
    this.#targets.set(key, watcher ? { watcher } : { path: pollPath, signature: await signature(pollPath) });
    return true;
  }

  #watch(key: string, dir: string, relevant: Relevance): FSWatcher | undefined {
    if (this.#exhausted !== undefined || this.#refused.has(dir)) return undefined;
    if (this.#watchers >= this.#settings.maxWatchedDirectories) {
      this.#capped = true;
      return undefined;
    }
    let watcher: FSWatcher;
    try {
      watcher = watchFolder(dir, (event, name) => {
        const entry = name === null ? null : basename(name);
        if (relevant(event, entry)) this.#changed(`${event} ${entry === null ? dir : join(dir, entry)}`);
      });
    } catch (error) {
      this.#refuse(dir, error);
      return undefined;
    }
    // Deno ignores `persistent: false`; unref() keeps the process free to exit on every runtime.
    watcher.unref();
    // Deno reports a folder it cannot watch here rather than by throwing.
    watcher.on("error", (error) => {
      const target = this.#targets.get(key);
      if (target && "watcher" in target && target.watcher === watcher) this.#drop(key);
      this.#refuse(dir, error);
      this.#changed(`${dir} cannot be watched`);
    });
    this.#watchers++;
    return watcher;
  }

  #refuse(dir: string, error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    // Gone since it was listed: the next scan no longer looks there.
    if (GONE.has(code)) return;
    const { name, logger, pollIntervalMs } = this.#settings;
    if (EXHAUSTED.has(code)) {
      if (this.#exhausted === undefined) {
        this.#exhausted = code;
        logger.warn(`${name}: cannot watch more folders (${errorMessage(error)}); polling the rest every ${pollIntervalMs} ms`);
      }
      return;
    }
    this.#refused.add(dir);
    logger.debug(`${name}: cannot watch ${dir} (${errorMessage(error)}); polling it every ${pollIntervalMs} ms`);
  }

  #drop(key: string): void {
    const target = this.#targets.get(key);
    this.#targets.delete(key);
    if (target && "watcher" in target) {
      target.watcher.close();
      this.#watchers--;
    }
  }

  #changed(why: string): void {
    if (this.#stopped) return;
    // The first change of a burst says why the catalog reloads; the rest would only be noise.
    const { name, logger } = this.#settings;
    if (this.#rescanTimer === undefined && !this.#scanning) logger.debug(`${name}: change seen: ${why}`);
    this.#notify();
    this.#requestRescan();
  }

  #notify(): void {
    if (this.#stopped) return;
    try {
      this.#onChange();
    } catch (error) {
      this.#settings.logger.error(`${this.#settings.name}: a change listener failed: ${errorMessage(error)}`);
    }
  }

  #requestRescan(): void {
    if (this.#stopped || this.#rescanTimer !== undefined) return;
    if (this.#scanning) {
      this.#rescanAgain = true;
      return;
    }
    this.#rescanTimer = setTimeout(() => void this.rescan(), RESCAN_DELAY_MS);
    this.#rescanTimer.unref();
  }

  /** One chain of polls at a time, each waiting for the last: a slow disk never piles them up. */
  #schedulePoll(): void {
    if (this.#stopped || this.#polling || ![...this.#targets.values()].some(isPolled)) return;
    this.#polling = true;
    this.#pollTimer = setTimeout(() => void this.#poll(), this.#settings.pollIntervalMs);
    this.#pollTimer.unref();
  }

  async #poll(): Promise<void> {
    const polled = [...this.#targets.values()].filter(isPolled);
    let now: string[] | undefined;
    try {
      now = await mapLimit(polled, STAT_CONCURRENCY, (target) => signature(target.path), this.#abort.signal);
    } catch {
      // Only stopping aborts a poll: signature() never throws.
    }
    this.#polling = false;
    if (now === undefined || this.#stopped) return;
    let changed: string | undefined;
    for (const [index, target] of polled.entries()) {
      if (now[index] === target.signature) continue;
      target.signature = now[index]!;
      changed ??= target.path;
    }
    if (changed !== undefined) this.#changed(`${changed} changed (polled)`);
    this.#schedulePoll();
  }

  /** Logs which mode is in use whenever it changes: watching, polling or both. */
  #report(): void {
    const polled = [...this.#targets.values()].filter(isPolled).length;
    const mode = polled === 0 ? "watch" : this.#watchers === 0 ? "poll" : "both";
    if (mode === this.#mode) return;
    this.#mode = mode;
    const { name, pollIntervalMs, maxWatchedDirectories, logger } = this.#settings;
    let line = `${name}: watching ${this.#watchers} folders for changes`;
    if (polled > 0) {
      const why = this.#exhausted
        ? `fs.watch failed with ${this.#exhausted}`
        : this.#capped
          ? `maxWatchedDirectories is ${maxWatchedDirectories}`
          : "fs.watch refused some folders";
      line += `, polling ${polled} paths every ${pollIntervalMs} ms (${why})`;
    }
    logger.debug(line);
  }
}

/** Whether an event in a listed folder can change what a load finds. */
function inFolder(event: WatchEventType, entry: string | null): boolean {
  if (entry === null) return true;
  // A file written in place: only a skill file's content is loaded.
  if (event === "change") return SKILL_FILES.includes(entry);
  // An entry created, deleted or moved: perhaps a folder the scan enters, or a skill file.
  return !SKIPPED_FOLDERS.has(entry);
}

function isPolled(target: Target | undefined): target is Polled {
  return target !== undefined && "path" in target;
}

/**
 * What a poll compares. A folder's mtime moves when entries come or go, a file's when it is
 * written; the inode number moves when a file is replaced by a rename (an editor's atomic save).
 */
async function signature(path: string): Promise<string> {
  try {
    const stats = await stat(path);
    return `${stats.isDirectory() ? "dir" : "file"} ${stats.ino} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs}`;
  } catch (error) {
    return `unreadable ${(error as NodeJS.ErrnoException).code ?? ""}`;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
