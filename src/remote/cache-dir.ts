import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { expandHome } from "../skills/paths.js";

/**
 * Where remote sources keep what they fetched on disk: `cacheDir` when configured (relative to
 * the config's folder, `~` to home), else $XDG_CACHE_HOME/skills-kernel, else ~/.cache/skills-kernel.
 */
export function cacheRoot(configured: string | undefined, baseDir: string): string {
  const home = homedir();
  if (configured !== undefined) return resolve(baseDir, expandHome(configured, home));
  const xdg = process.env.XDG_CACHE_HOME;
  // The XDG spec says a relative value is invalid and is to be ignored.
  return xdg?.startsWith("/") ? join(xdg, "skills-kernel") : join(home, ".cache", "skills-kernel");
}
