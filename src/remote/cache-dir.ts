import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { expandHome } from "../skills/files/paths.js";

/**
 * The user's cache folder, where remote sources keep what they fetched and the fs source its
 * snapshots: `cacheDir` when configured (relative to the config's folder, `~` to home), else
 * $SKILLS_KERNEL_CACHE_DIR (relative to the working folder), else $XDG_CACHE_HOME/skills-kernel,
 * else ~/.cache/skills-kernel.
 */
export function cacheRoot(configured: string | undefined, baseDir: string): string {
  const home = homedir();
  if (configured !== undefined) return resolve(baseDir, expandHome(configured, home));
  const chosen = process.env.SKILLS_KERNEL_CACHE_DIR;
  if (chosen) return resolve(expandHome(chosen, home));
  const xdg = process.env.XDG_CACHE_HOME;
  // The XDG spec says a relative value is invalid and is to be ignored.
  return xdg?.startsWith("/") ? join(xdg, "skills-kernel") : join(home, ".cache", "skills-kernel");
}
