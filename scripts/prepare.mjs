// What `npm ci` and `npm install` run once the packages are in: keep Node 24's bin link off PATH
// (keep-system-node.mjs), build the bundle and its declarations, then the example plugin packages.
//
// `npx skills-kernel` in a checkout installs the checkout into npx's cache as a link to the
// checkout itself, and npm runs this script again there: on the same folder, already built by
// `npm ci`. Repeating minutes of builds before the first start would only make it look hung.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (process.env.npm_command === "exec" && existsSync(`${root}/dist/cli.js`)) process.exit(0);

const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
node("scripts/keep-system-node.mjs");
node("scripts/build.mjs");
// npm_execpath is the npm that runs this script: no reliance on a shell or on `npm` being on PATH.
node(process.env.npm_execpath, "run", "build", "--workspaces");
