import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

// Helpers shared by watch.test.ts and watch-probe.ts; no vitest here, so Bun and Deno can run the probe.

/** Polls `check` until it holds; fails naming `what` after `timeoutMs` (generous: CI disks are slow). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

export const HAS_INOTIFY_INFO = process.platform === "linux";

/**
 * The inotify watches this process holds, as the kernel counts them (/proc/self/fdinfo): the
 * same truth on every runtime, and unref'd watchers, invisible to Node's handle lists, count too.
 */
export function inotifyWatches(): number {
  return inotifyLines().length;
}

/** The inodes this process holds an inotify watch on (Linux only). */
export function watchedInodes(): Set<number> {
  return new Set(inotifyLines().map((line) => Number.parseInt(/\bino:([0-9a-f]+)/.exec(line)?.[1] ?? "", 16)));
}

function inotifyLines(): string[] {
  const lines: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== "anon_inode:inotify") continue;
      lines.push(
        ...readFileSync(`/proc/self/fdinfo/${fd}`, "utf8")
          .split("\n")
          .filter((line) => line.startsWith("inotify wd:")),
      );
    } catch {
      // The fd closed while the list was read (readdir's own, for one).
    }
  }
  return lines;
}
