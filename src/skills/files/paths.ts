import { isAbsolute, join, relative, sep } from "node:path";

/** `~` and `~/x` name the home folder in every path a config or a tool argument gives. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return path;
}

/** Whether `path` is `dir` itself or lies inside it; both absolute, symlinks already resolved. */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!isAbsolute(rel) && rel.split(sep)[0] !== "..");
}

/** Strictly inside `dir`: `dir` itself does not count (a file is never its own folder). */
export function isInside(path: string, dir: string): boolean {
  return relative(dir, path) !== "" && isWithin(path, dir);
}
