import { execFile } from "node:child_process";
import { symlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { BUN, DENO } from "../helpers/runtimes.js";
import { REPO_ROOT, tempProject } from "./helpers.js";

/**
 * The config loader under each runtime as users run it: Bun and Deno import the TypeScript sources
 * and config files natively; Node 20 runs a bundle (as in dist/), with jiti for TypeScript configs.
 * The probe prints one result per project folder.
 */
const PROBE = path.join(REPO_ROOT, "test/config/runtime-probe.mjs");
const LOADER = path.join(REPO_ROOT, "src/config/config-loader.ts");
const RESOLVER = path.join(REPO_ROOT, "src/config/plugin-resolver.ts");

const run = promisify(execFile);

async function probe(runtime: "node" | "bun" | "deno", dirs: string[]): Promise<unknown[]> {
  let command: [string, ...string[]];
  if (runtime === "node") {
    const bundle = await bundleSources();
    command = [process.execPath, PROBE, bundle, bundle];
  } else if (runtime === "bun") {
    command = [BUN, PROBE, LOADER, RESOLVER];
  } else {
    // The sources import each other as ./x.js (NodeNext style), which Deno maps to ./x.ts only
    // with --sloppy-imports. Deno finds the npm packages in node_modules through the package.json
    // above the main module (the probe, inside the repo).
    command = [DENO, "run", "-A", "--quiet", "--sloppy-imports", PROBE, LOADER, RESOLVER];
  }
  const [file, ...args] = command;
  const { stdout } = await run(file, [...args, ...dirs], { cwd: REPO_ROOT, timeout: 20_000 });
  return JSON.parse(stdout) as unknown[];
}

/** Both modules in one ESM bundle, next to a link to the repo's node_modules for its imports. */
async function bundleSources(): Promise<string> {
  const dir = await tempProject({});
  await symlink(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "junction");
  const outfile = path.join(dir, "kernel.mjs");
  await build({
    stdin: {
      contents: [
        `export { loadConfig } from ${JSON.stringify(LOADER)};`,
        `export { resolvePluginEntries } from ${JSON.stringify(RESOLVER)};`,
      ].join("\n"),
      resolveDir: REPO_ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

const PACKAGE_JSON = JSON.stringify({ name: "project", private: true, type: "module" });

describe.each(["node", "bun", "deno"] as const)("under %s", (runtime) => {
  it("loads TypeScript configs and plugins, and reports their errors with a location", async () => {
    const root = await tempProject({
      "ok/package.json": PACKAGE_JSON,
      "ok/plugins.config.ts": [
        `import { defineConfig } from ${JSON.stringify(path.join(REPO_ROOT, "src/kernel/config.ts"))};`,
        `import { roots } from "./lib/roots.ts";`,
        `type Level = "warn" | "info";`,
        `const level: Level = "warn";`,
        `export default defineConfig({`,
        `  plugins: [["fs", { roots }], ["./plugins/local.ts", { answer: 42 }], "@acme/skills-plugin"],`,
        `  logLevel: level,`,
        `} satisfies Parameters<typeof defineConfig>[0]);`,
      ].join("\n"),
      "ok/lib/roots.ts": `export const roots: readonly string[] = ["./skills"];\n`,
      "ok/plugins/local.ts": `const plugin: { name: string; setup(): void } = { name: "local", setup() {} };\nexport default plugin;\n`,
      "ok/node_modules/@acme/skills-plugin/package.json": JSON.stringify({
        name: "@acme/skills-plugin",
        type: "module",
        exports: { ".": "./dist/index.js" },
      }),
      "ok/node_modules/@acme/skills-plugin/dist/index.js": `export default { name: "acme", setup() {} };\n`,
      "ts-syntax/package.json": PACKAGE_JSON,
      "ts-syntax/plugins.config.ts": `const level: string = "info";\nconst x = ;\nexport default { logLevel: level };\n`,
      "js-syntax/package.json": PACKAGE_JSON,
      "js-syntax/plugins.config.mjs": `export default { logLevel: "info" ;\n`,
      "throws/package.json": PACKAGE_JSON,
      "throws/plugins.config.mts": `throw new Error("no config today");\n`,
    });
    const [ok, tsSyntax, jsSyntax, throws] = await probe(
      runtime,
      ["ok", "ts-syntax", "js-syntax", "throws"].map((dir) => path.join(root, dir)),
    );

    expect(ok).toEqual({
      config: {
        plugins: [["fs", { roots: ["./skills"] }], ["./plugins/local.ts", { answer: 42 }], "@acme/skills-plugin"],
        logLevel: "warn",
      },
      plugins: [
        { name: "fs", options: { roots: ["./skills"] }, origin: "fs" },
        { name: "local", options: { answer: 42 }, origin: "./plugins/local.ts" },
        { name: "acme", origin: "@acme/skills-plugin" },
      ],
    });
    expect(tsSyntax).toEqual({
      error: expect.stringMatching(/^plugins\.config\.ts: cannot load: syntax error at 2:11: \S/),
    });
    expect(jsSyntax).toEqual({ error: expect.stringMatching(/^plugins\.config\.mjs: cannot load: syntax error/) });
    expect(throws).toEqual({ error: "plugins.config.mts: cannot load: no config today" });
    for (const result of [tsSyntax, jsSyntax, throws]) expect((result as { error: string }).error).not.toMatch(/\n/);
  });
});
