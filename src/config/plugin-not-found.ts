import { distance } from "fastest-levenshtein";

/** A name npm would accept: lower case, an optional @scope/. */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

/**
 * Why a plugin name resolved to nothing, in the words that fix it: a typo of a built-in gets the
 * built-in it is closest to; a package name gets the npm install command and where Node looked.
 */
export function pluginNotFound(ref: string, builtins: readonly string[], baseDir: string): string {
  const near = nearest(ref, builtins);
  if (near !== undefined) return `plugin "${ref}" is not a built-in; did you mean "${near}"?`;
  const list = `built-ins: ${builtins.join(", ")}`;
  if (!NPM_NAME.test(ref) || ref.startsWith("node:"))
    return `plugin "${ref}" is not a built-in (${list}), a module path or an npm package name`;
  return (
    `plugin "${ref}" is not a built-in, and no package of that name is installed (looked in node_modules in ${baseDir} and every folder above it): ` +
    `run npm install ${ref} in ${baseDir}; a module path starts with "./"; ${list}`
  );
}

/** The built-in a short name is a slip of: at most two edits away, and fewer edits than a third of its length. */
function nearest(ref: string, builtins: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of builtins) {
    const d = distance(ref.toLowerCase(), name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= 2 && bestDistance * 3 < ref.length ? best : undefined;
}
