// What `npm ci` and `npm install` run once the packages are in: build the bundle and its
// declarations, then the example plugin packages.
//
// `npx skills-kernel` in a checkout installs the checkout into npx's cache as a link to the
// checkout itself, and npm runs this script again there: on the same folder, already built by
// `npm ci`. Repeating minutes of builds before the first start would only make it look hung.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (process.env.npm_command === "exec" && existsSync(`${root}/dist/cli.js`)) process.exit(0);

// `npm ci --omit=dev` installs what the published package needs at run time, not the build tools:
// there is nothing to build with, so say so instead of failing the install.
try {
  createRequire(import.meta.url).resolve("esbuild");
} catch {
  console.error(
    "skills-kernel: the build tools are not installed (npm ci --omit=dev): dist/ was not built; run npm ci to build it",
  );
  process.exit(0);
}

const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
node("scripts/build.mjs");
// npm_execpath is the npm that runs this script: no reliance on a shell or on `npm` being on PATH.
node(process.env.npm_execpath, "run", "build", "--workspaces");
