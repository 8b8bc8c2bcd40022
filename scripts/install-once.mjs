// A package of tools kept out of the project's install (test/runtimes, mcpb/tool), installed from
// its own lock on first use, and again when that lock changes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

/**
 * `npm ci` in `folder` (a file: URL's path, ending in /) unless its lock is the one installed there;
 * `npmArgs` are added to npm's (`--ignore-scripts`).
 */
export function installOnce(folder, what, npmArgs = []) {
  // Written after a successful install: the digest of the lock it installed.
  const stamp = `${folder}node_modules/.installed-lock-sha256`;
  const lock = createHash("sha256")
    .update(readFileSync(`${folder}package-lock.json`))
    .digest("hex");
  let installed;
  try {
    installed = readFileSync(stamp, "utf8");
  } catch {
    // Never installed here.
  }
  if (installed === lock) return;
  console.error(`skills-kernel: installing ${what} in ${folder}`);
  // npm_execpath is the npm running the script: no reliance on `npm` being on PATH.
  const npm = process.env.npm_execpath;
  const args = ["ci", "--no-audit", "--no-fund", ...npmArgs, "--prefix", folder];
  execFileSync(npm ? process.execPath : "npm", npm ? [npm, ...args] : args, {
    stdio: ["ignore", "inherit", "inherit"],
  });
  writeFileSync(stamp, lock);
}
