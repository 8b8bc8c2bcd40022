import { join } from "node:path";

/** `~` and `~/x` name the home folder in every path a config or a tool argument gives. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return path;
}
