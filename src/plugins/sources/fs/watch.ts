import { statSync, watch as watchFolder, type FSWatcher, type WatchEventType } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { clearTimeout, setTimeout } from "node:timers";
import pLimit from "p-limit";
import { errorMessage } from "../../../kernel/errors.js";
import { createLogger, type Logger } from "../../../kernel/logger.js";
import { SKILL_FILES, SKIPPED_FOLDERS } from "../../../skills/files/folder-rules.js";
import { ownString } from "./own-strings.js";
import { scanRoot, type ScanResult } from "./scan.js";

export interface WatchSettings {
  /** The source's name, for log lines. */
  readonly name: string;
  readonly roots: readonly string[];
  /** Roots whose symlinked skill folders lead anywhere, as the source's loads follow them. */
  readonly followLinksOut?: readonly string[];
  readonly maxDepth: number;
  readonly maxDirectories: number;
  /** Folders past this many are polled instead. */
  readonly maxWatchedDirectories: number;
  readonly pollIntervalMs: number;
  readonly logger: Logger;
  /** What the source's loads saw, so that arming the watchers need not cost a reload. */
  readonly baseline?: LoadBaseline;
}

/**
 * The last load of the roots, as the watcher's first walk compares it: when that walk, every
 * folder armed before it was listed, finds what the load found, nothing changed in between that
 * a later event would not report.
 */
export interface LoadBaseline {
  /** Resolves once no load is under way (a load in progress is the one to compare with). */
  settled(): Promise<void>;
  /** Whether a walk of the root at `rank`, just made, finds what the last finished load did. */
  isCurrent(rank: number, scan: ScanResult): boolean;
}

// Events come in bursts (an editor's save, a git checkout): one rescan shortly after the first
// event covers the burst, and events during a rescan queue exactly one more.
const RESCAN_DELAY_MS = 50;

const STAT_CONCURRENCY = 16;

/**
 * Polled paths are stat'ed at most this often in all, whatever their number: past
 * pollIntervalMs × this many, the interval grows, so polling never costs more than a sliver of a
 * core (10,000 paths every 40 s).
 */
const MAX_POLLED_PER_SECOND = 250;

// The per-user limits on inotify watches and open files: every further fs.watch would fail too.
const EXHAUSTED = new Set(["ENOSPC", "EMFILE", "ENFILE"]);
const GONE = new Set(["ENOENT", "ENOTDIR"]);

// The load that follows a change reports what the scan finds; the watcher's own scans stay quiet.
const QUIET = createLogger("silent");

type Relevance = (event: WatchEventType, entry: string | null) => boolean;

interface Watched {
  readonly watcher: FSWatcher;
  /** The folder watched, and which of its events matter. */
  readonly dir: string;
  readonly relevant: Relevance;
  /** The folder's folderIdentity() when it was armed: a folder replaced at the same path is armed anew. */
  readonly identity?: string;
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
  /**
   * By folder (its absolute path, the scan's own string), `file:<skill file>` or
   * `above:<folder>:<entry>` (a missing root's way down): no absolute path starts with either prefix.
   */
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
  /** The first walk compares with the last load instead of signalling whatever it armed. */
  #first = true;

  constructor(settings: WatchSettings, onChange: () => void) {
    this.#settings = settings;
    this.#onChange = onChange;
  }

  async rescan(): Promise<void> {
    this.#rescanTimer = undefined;
    this.#scanning = true;
    this.#rescanAgain = false;
    try {
      // Walking while the source loads would compete with it for the disk, and compare with it too early.
      if (this.#first) await this.#settings.baseline?.settled();
      await this.#sync();
    } catch (error) {
      if (!this.#stopped)
        this.#settings.logger.warn(`${this.#settings.name}: cannot scan for changes: ${errorMessage(error)}`);
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
    const first = this.#first;
    this.#first = false;
    let current = first && this.#settings.baseline !== undefined;
    // Roots one after the other, each breadth first: when watchers run short, the same shallow
    // folders get them every time.
    for (const [rank, root] of roots.entries()) {
      let found = false;
      const scan = await scanRoot(root, {
        sourceRoots: roots,
        followLinksOut: this.#settings.followLinksOut?.includes(root),
        maxDepth,
        maxDirectories,
        logger: QUIET,
        signal: this.#abort.signal,
        onDirectory: async (dir) => {
          found = true;
          if (await this.#track(dir, seen, dir, { dir, relevant: inFolder, identity: folderIdentity(dir) })) fresh++;
        },
      });
      if (this.#stopped) return;
      if (current && !this.#settings.baseline!.isCurrent(rank, scan)) current = false;
      // In-place writes leave a folder's mtime alone: a polled skill folder's SKILL.md is polled too.
      for (const folder of scan.folders) {
        if (!isPolled(this.#targets.get(folder.dir))) continue;
        if (await this.#track(`file:${folder.file}`, seen, folder.file)) fresh++;
      }
      if (!found && (await this.#awaitRoot(root, seen))) fresh++;
    }
    if (this.#stopped) return;
    for (const key of [...this.#targets.keys()]) if (!seen.has(key)) this.#drop(key);
    this.#report();
    // A load that listed these folders before they were armed may have missed a change in them,
    // unless this walk, made after arming, found what the last load found.
    if (first ? !current : fresh > 0) this.#notify();
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

  /**
   * Watches or polls a path this walk needs; true when it was not followed before. A watched
   * folder whose identity changed (deleted and made again, or another renamed into its place)
   * holds a watch on a folder that is gone: it is armed again.
   */
  async #track(
    key: string,
    seen: Set<string>,
    pollPath: string,
    watch?: { dir: string; relevant: Relevance; identity?: string },
  ): Promise<boolean> {
    if (seen.has(key)) return false;
    seen.add(key);
    if (this.#stopped) return false;
    const known = this.#targets.get(key);
    if (known) {
      if (!("watcher" in known) || known.identity === watch?.identity) return false;
      this.#settings.logger.debug(`${this.#settings.name}: ${watch?.dir} was replaced; watching the new folder`);
      this.#drop(key);
    }
    const watcher = watch && this.#watch(key, watch.dir);
    this.#targets.set(
      key,
      watcher
        ? { watcher, dir: watch.dir, relevant: watch.relevant, identity: watch.identity }
        : { path: pollPath, signature: await signature(pollPath) },
    );
    return true;
  }

  #watch(key: string, dir: string): FSWatcher | undefined {
    if (this.#exhausted !== undefined || this.#refused.has(dir)) return undefined;
    if (this.#watchers >= this.#settings.maxWatchedDirectories) {
      this.#capped = true;
      return undefined;
    }
    let watcher: FSWatcher;
    // Tens of thousands of folders are watched: the listeners hold the key alone, and find the
    // folder and what matters in it in #targets. Deno calls them on no watcher (`this`).
    try {
      watcher = watchFolder(dir, (event, name) => this.#event(key, watcher, event, name));
    } catch (error) {
      this.#refuse(dir, error);
      return undefined;
    }
    // Deno ignores `persistent: false`; unref() keeps the process free to exit on every runtime.
    watcher.unref();
    // Deno reports a folder it cannot watch here rather than by throwing.
    watcher.on("error", (error) => this.#failed(key, watcher, error));
    this.#watchers++;
    return watcher;
  }

  /** The target `watcher` serves under `key`; undefined once it was dropped. */
  #watchedBy(key: string, watcher: FSWatcher): Watched | undefined {
    const target = this.#targets.get(key);
    return target && "watcher" in target && target.watcher === watcher ? target : undefined;
  }

  #event(key: string, watcher: FSWatcher, event: WatchEventType, name: string | Buffer | null): void {
    const target = this.#watchedBy(key, watcher);
    if (!target) return;
    const entry = name === null ? null : basename(String(name));
    if (target.relevant(event, entry))
      this.#changed(`${event} ${entry === null ? target.dir : join(target.dir, entry)}`);
  }

  #failed(key: string, watcher: FSWatcher, error: Error): void {
    const target = this.#watchedBy(key, watcher);
    if (!target) return;
    this.#drop(key);
    this.#refuse(target.dir, error);
    this.#changed(`${target.dir} cannot be watched`);
  }

  #refuse(dir: string, error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    // Gone since it was listed: the next scan no longer looks there.
    if (GONE.has(code)) return;
    const { name, logger, pollIntervalMs } = this.#settings;
    if (EXHAUSTED.has(code)) {
      if (this.#exhausted === undefined) {
        this.#exhausted = code;
        logger.warn(
          `${name}: cannot watch more folders (${errorMessage(error)}); polling the rest every ${pollIntervalMs} ms`,
        );
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
    this.#pollTimer = setTimeout(() => void this.#poll(), this.#pollInterval());
    this.#pollTimer.unref();
  }

  /** pollIntervalMs, or longer when that many paths every pollIntervalMs would exceed MAX_POLLED_PER_SECOND. */
  #pollInterval(): number {
    let polled = 0;
    for (const target of this.#targets.values()) if (isPolled(target)) polled++;
    return Math.max(this.#settings.pollIntervalMs, Math.ceil((polled / MAX_POLLED_PER_SECOND) * 1000));
  }

  async #poll(): Promise<void> {
    const polled = [...this.#targets.values()].filter(isPolled);
    let now: string[] | undefined;
    try {
      const signal = this.#abort.signal;
      now = await pLimit(STAT_CONCURRENCY).map(polled, (target) => {
        signal.throwIfAborted();
        return signature(target.path);
      });
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

  /**
   * Logs which mode is in use whenever it changes: watching, polling or both. Polling costs CPU
   * and notices changes late, so it is said at info level, with why.
   */
  #report(): void {
    const polled = [...this.#targets.values()].filter(isPolled).length;
    const interval = this.#pollInterval();
    const mode = polled === 0 ? "watch" : `${this.#watchers === 0 ? "poll" : "both"} ${interval}`;
    if (mode === this.#mode) return;
    this.#mode = mode;
    const { name, maxWatchedDirectories, logger } = this.#settings;
    let line = `${name}: watching ${this.#watchers} folders for changes`;
    if (polled === 0) {
      logger.debug(line);
      return;
    }
    const why = this.#exhausted
      ? `fs.watch failed with ${this.#exhausted}`
      : this.#capped
        ? `maxWatchedDirectories is ${maxWatchedDirectories}`
        : "fs.watch refused some folders";
    line += `, polling ${polled} paths every ${interval} ms (${why})`;
    logger.info(line);
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

/**
 * A folder's device, inode and birth time, or undefined if it cannot be stat'ed (then it is armed
 * as found). The birth time matters: a folder deleted and made again at once often gets the
 * inode number back.
 */
function folderIdentity(dir: string): string | undefined {
  try {
    const stats = statSync(dir);
    // One flat string: the template's pieces, kept as they are, take several times its size.
    return ownString(`${stats.dev}:${stats.ino}:${stats.birthtimeMs}`);
  } catch {
    return undefined;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
