import { lstat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isWithin } from "./paths.js";

/** A folder on the way to where an install writes that stops it, and why. */
export interface LinkedFolder {
  readonly path: string;
  readonly problem: string;
}

/**
 * The first folder from `base` (left out) down to `folder` (included) that is a symbolic link, or
 * cannot be checked. Everything that writes or deletes installed skills asks this first: a link
 * on the way (`.claude/skills -> $HOME`, `.claude -> /x` in a cloned repository) would turn
 * writing or replacing a skill into writing or deleting a folder of the user's. A folder not
 * there yet ends the walk: what gets made from there on is made as real folders. A `folder` not
 * inside `base` is checked with the folder holding it.
 */
export async function linkOnTheWay(folder: string, base: string): Promise<LinkedFolder | undefined> {
  const from = isWithin(folder, base) && folder !== base ? base : dirname(dirname(folder));
  let path = from;
  for (const segment of relative(from, folder).split(sep)) {
    path = join(path, segment);
    let linked: boolean;
    try {
      linked = (await lstat(path)).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      return { path, problem: `cannot be checked (${code ?? "unknown error"})` };
    }
    if (linked) return { path, problem: "is a symbolic link" };
  }
  return undefined;
}
