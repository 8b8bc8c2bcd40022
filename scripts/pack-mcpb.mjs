// `npm run pack:mcpb [-- OUTPUT]`: the MCP Bundle (Claude Desktop's one-click install), at
// skills-kernel.mcpb unless told where.
// The bundle is self-contained: dist/'s bundled JavaScript needs no node_modules to serve skills,
// so it ships those files, the entry that maps Claude Desktop's settings to CLI options, the
// manifest and the icon. Built with the official mcpb tool, which validates the manifest first.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installOnce } from "./install-once.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
if (!existsSync(join(dist, "cli.js"))) {
  console.error("skills-kernel: dist/ is not built: run npm run build (or npm ci) first");
  process.exit(1);
}
// The official tool is a package of its own (mcpb/tool), kept out of the project's install and
// installed there on first use. It exports no path to its command line: run the file its `bin` names.
installOnce(join(root, "mcpb/tool/"), "the mcpb tool");
const mcpb = join(root, "mcpb/tool/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
const output = process.argv[2] ?? join(root, "skills-kernel.mcpb");
const staging = mkdtempSync(join(tmpdir(), "skills-kernel-mcpb-"));
try {
  const server = join(staging, "server");
  mkdirSync(server);
  // The bundle and its license notices; source maps and declarations are for developers.
  for (const file of readdirSync(dist))
    if (/\.js$|\.LEGAL\.txt$/.test(file)) copyFileSync(join(dist, file), join(server, file));
  copyFileSync(join(root, "mcpb/mcpb-entry.js"), join(server, "mcpb-entry.js"));
  writeFileSync(join(server, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  copyFileSync(join(root, "mcpb/manifest.json"), join(staging, "manifest.json"));
  copyFileSync(join(root, "assets/icon.png"), join(staging, "icon.png"));
  copyFileSync(join(root, "README.md"), join(staging, "README.md"));
  const run = (...args) => execFileSync(process.execPath, [mcpb, ...args], { stdio: ["ignore", "inherit", "inherit"] });
  run("validate", join(staging, "manifest.json"));
  rmSync(output, { force: true });
  run("pack", staging, output);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
