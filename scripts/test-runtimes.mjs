// The end-to-end tests run the bundle on Node 24, Bun and Deno, and the conformance suite on Node 24.
// Those runtimes are a separate package (test/runtimes) so that installing skills-kernel never
// downloads them: `npm test` installs them here on first use, and again when their lock changes.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const folder = fileURLToPath(new URL("../test/runtimes/", import.meta.url));
const read = (file) => {
  try {
    return readFileSync(folder + file, "utf8");
  } catch {
    return undefined;
  }
};
// npm ci records what it installed in node_modules/.package-lock.json: the same packages as the lock
// means nothing to do.
const locked = JSON.parse(read("package-lock.json")).packages;
const installed = JSON.parse(read("node_modules/.package-lock.json") ?? '{"packages":{}}').packages;
const current = Object.entries(locked).every(([path, entry]) => path === "" || installed[path]?.version === entry.version);
if (!current) {
  console.error("skills-kernel: installing the test runtimes (Node 24, Bun, Deno, the MCP conformance suite) in test/runtimes");
  // npm_execpath is the npm running `npm test`: no reliance on `npm` being on PATH.
  const npm = process.env.npm_execpath;
  const args = ["ci", "--no-audit", "--no-fund", "--prefix", folder];
  execFileSync(npm ? process.execPath : "npm", npm ? [npm, ...args] : args, { stdio: "inherit" });
}
