// The end-to-end tests run the bundle on Node 24, Bun and Deno, the conformance suite on Node 24, the
// catalog page in Chromium, and pack the MCP Bundle with the mcpb tool. Those are a separate package
// (test/runtimes) so that installing skills-kernel never downloads them: `npm test` (and
// `npm run pack:mcpb`) installs them here on first use, and again when their lock changes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const folder = fileURLToPath(new URL("../test/runtimes/", import.meta.url));
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
if (installed !== lock) {
  console.error(
    "skills-kernel: installing the test runtimes (Node 24, Bun, Deno, the MCP conformance suite, Chromium, the mcpb tool) in test/runtimes",
  );
  // npm_execpath is the npm running `npm test`: no reliance on `npm` being on PATH.
  const npm = process.env.npm_execpath;
  const args = ["ci", "--no-audit", "--no-fund", "--prefix", folder];
  execFileSync(npm ? process.execPath : "npm", npm ? [npm, ...args] : args, { stdio: "inherit" });
  writeFileSync(stamp, lock);
}
