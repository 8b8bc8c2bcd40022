import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, parse } from "node:path";
import type { Scope } from "./agents.js";
import { LOCK_FILE } from "./lock-file.js";

/**
 * The project an install belongs to: the nearest folder from `cwd` up holding skills-lock.json,
 * .git or package.json (never the home folder or the filesystem root), else `cwd` itself.
 */
export function findProjectRoot(cwd: string): string {
  const home = homedir();
  for (let folder = cwd; folder !== home && folder !== parse(folder).root; folder = dirname(folder)) {
    if ([LOCK_FILE, ".git", "package.json"].some((marker) => existsSync(join(folder, marker)))) return folder;
  }
  return cwd;
}

/** The project's scope, or the user's with --global. */
export function scopeFor(global: boolean, cwd: string): Scope {
  const home = homedir();
  return global ? { global: true, root: home, home } : { global: false, root: findProjectRoot(cwd), home };
}
