import { relative, sep } from "node:path";
import { SKIPPED_FOLDERS } from "./folder-rules.js";
import { isInside } from "./paths.js";

/**
 * Whether a real path (every symlink resolved) is one a skill folder `dir` may serve: inside it,
 * and not in (or being) a .git or node_modules of it. A skill at a repository's root holds the
 * checkout's .git, and a link to .git/config would serve the remote URL with its token.
 */
export function isServedFrom(real: string, dir: string): boolean {
  return (
    isInside(real, dir) &&
    !relative(dir, real)
      .split(sep)
      .some((segment) => SKIPPED_FOLDERS.has(segment))
  );
}
