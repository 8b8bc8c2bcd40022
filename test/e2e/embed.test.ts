import { spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, RUNTIMES, scriptOn, type Runtime } from "../helpers/cli.js";

const EXAMPLE = fileURLToPath(new URL("../../examples/embed.mjs", import.meta.url));

// The embedding example is documentation that runs: it must keep working on every runtime.
describe.each(Object.keys(RUNTIMES) as Runtime[])("examples/embed.mjs on %s", (runtime) => {
  it("boots a kernel in-process and walks search then read", () => {
    const result = spawnSync(...scriptOn(runtime, EXAMPLE, "release notes"), { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^changelog-curator \((exact|strong|partial|weak)\): 0 file\(s\) to fetch\n$/);
    expect(result.status).toBe(0);
  });
});

// An app with skills-kernel installed and nothing else: what is missing is said in one line.
describe("embedding without @modelcontextprotocol/client", () => {
  let app: string;
  beforeAll(async () => {
    app = await mkdtemp(join(tmpdir(), "sk-embed-no-client-"));
    // The package as installed: its bundle and package.json (the bundle needs no node_modules).
    const installed = join(app, "node_modules", "skills-kernel");
    await mkdir(installed, { recursive: true });
    await cp(join(REPO_ROOT, "dist"), join(installed, "dist"), { recursive: true });
    await cp(join(REPO_ROOT, "package.json"), join(installed, "package.json"));
    await cp(EXAMPLE, join(app, "embed.mjs"));
    await cp(join(REPO_ROOT, "examples", "skills"), join(app, "skills"), { recursive: true });
    await writeFile(
      join(app, "plugin.test.mjs"),
      'import { startTestKernel } from "skills-kernel/testing";\nawait startTestKernel({ plugins: ["list-skills"] });\n',
    );
  });
  afterAll(async () => {
    await rm(app, { recursive: true, force: true });
  });

  it.each(["node", "bun"] as const)("examples/embed.mjs says what to install, exit 1 (%s)", (runtime) => {
    const result = spawnSync(RUNTIMES[runtime][0], [join(app, "embed.mjs")], { cwd: app, encoding: "utf8" });
    expect(result.stderr).toBe(
      "embed.mjs: the MCP client is not installed: npm install @modelcontextprotocol/client\n",
    );
    expect(result.status).toBe(1);
  });

  it("skills-kernel/testing's startTestKernel says what to install", () => {
    const result = spawnSync(process.execPath, [join(app, "plugin.test.mjs")], { cwd: app, encoding: "utf8" });
    expect(result.stderr).toContain(
      "Error: startTestKernel connects the official MCP client, which is not installed: npm install -D @modelcontextprotocol/client",
    );
    expect(result.status).toBe(1);
  });
});
