import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config-loader.js";
import { REPO_ROOT, expectConfigError, tempProject } from "./helpers.js";

// Vitest hands the import() of a JavaScript config to Vite rather than Node, so how each runtime
// reports a JavaScript syntax error is tested where nothing stands in between: runtimes.test.ts.

const CONFIG = { plugins: ["fs", ["list-skills", { limit: 5 }]], logLevel: "warn" };
const CONFIG_JSON = JSON.stringify(CONFIG, null, 2);
const CONFIG_YAML = "plugins:\n  - fs\n  - - list-skills\n    - limit: 5\nlogLevel: warn\n";
const DEFINE_CONFIG = JSON.stringify(path.join(REPO_ROOT, "src/kernel/config.ts"));

describe("loadConfig finds every config form", () => {
  it("reads the skills-kernel key of package.json", async () => {
    const dir = await tempProject({ "package.json": JSON.stringify({ name: "p", "skills-kernel": CONFIG }) });
    expect(await loadConfig({ cwd: dir, trust: true })).toEqual({
      config: CONFIG,
      filepath: path.join(dir, "package.json"),
      baseDir: dir,
      origin: "found",
    });
  });

  it.each([
    [".skills-kernelrc", CONFIG_JSON],
    [".skills-kernelrc", CONFIG_YAML],
    [".skills-kernelrc.json", CONFIG_JSON],
    [".skills-kernelrc.yaml", CONFIG_YAML],
    [".skills-kernelrc.yml", CONFIG_YAML],
    ["plugins.config.json", CONFIG_JSON],
    ["plugins.config.yaml", CONFIG_YAML],
    ["plugins.config.yml", CONFIG_YAML],
    ["plugins.config.mjs", `export default ${CONFIG_JSON};`],
    ["plugins.config.js", `export default ${CONFIG_JSON};`],
    ["plugins.config.cjs", `module.exports = ${CONFIG_JSON};`],
    ["plugins.config.mts", `const config: { logLevel: string } = ${CONFIG_JSON};\nexport default config;`],
    ["skills-kernel.config.mjs", `export default ${CONFIG_JSON};`],
  ])("reads %s (%#)", async (file, content) => {
    const dir = await tempProject({ [file]: content });
    expect(await loadConfig({ cwd: dir, trust: true })).toEqual({
      config: CONFIG,
      filepath: path.join(dir, file),
      baseDir: dir,
      origin: "found",
    });
  });

  it("runs a plugins.config.ts with TypeScript-only syntax and a local TypeScript import", async () => {
    const dir = await tempProject({
      "plugins.config.ts": [
        `import { defineConfig } from ${DEFINE_CONFIG};`,
        `import { roots, type Level } from "./lib/helper.ts";`,
        `interface Extra { limit: number }`,
        `const level: Level = "warn";`,
        `const extra = { limit: 5 } satisfies Extra;`,
        `export default defineConfig({ plugins: [["fs", { roots }], ["list-skills", extra]], logLevel: level });`,
      ].join("\n"),
      "lib/helper.ts": `export type Level = "warn" | "info";\nexport const roots: string[] = ["./skills"];\n`,
    });
    const loaded = await loadConfig({ cwd: dir, trust: true });
    expect(loaded?.config).toEqual({
      plugins: [
        ["fs", { roots: ["./skills"] }],
        ["list-skills", { limit: 5 }],
      ],
      logLevel: "warn",
    });
    expect(loaded?.filepath).toBe(path.join(dir, "plugins.config.ts"));
  });

  it("keeps plugin objects and functions as the config module made them", async () => {
    const dir = await tempProject({
      "plugins.config.mjs": `export const plugin = { name: "inline", setup() {} };\nexport default { plugins: [plugin] };`,
    });
    const loaded = await loadConfig({ cwd: dir, trust: true });
    const [plugin] = loaded?.config.plugins ?? [];
    expect(plugin).toMatchObject({ name: "inline", setup: expect.any(Function) });
  });

  it("searches up from a sub-folder to the project root", async () => {
    const dir = await tempProject({ "plugins.config.json": CONFIG_JSON, "packages/app/src/.keep": "" });
    const loaded = await loadConfig({ cwd: path.join(dir, "packages/app/src"), trust: true });
    expect(loaded).toEqual({
      config: CONFIG,
      filepath: path.join(dir, "plugins.config.json"),
      baseDir: dir,
      origin: "found",
    });
  });

  it("stops at the nearest folder holding a package.json", async () => {
    const dir = await tempProject({ "plugins.config.json": CONFIG_JSON, "packages/app/package.json": "{}" });
    expect(await loadConfig({ cwd: path.join(dir, "packages/app"), trust: true })).toBeNull();
  });

  it("takes the first search place that exists", async () => {
    const dir = await tempProject({
      ".skills-kernelrc.json": JSON.stringify({ logLevel: "debug" }),
      "plugins.config.mjs": `export default { logLevel: "error" };`,
    });
    expect((await loadConfig({ cwd: dir, trust: true }))?.config).toEqual({ logLevel: "debug" });
  });

  it("skips a package.json without the skills-kernel key", async () => {
    const dir = await tempProject({ "plugins.config.json": CONFIG_JSON });
    expect((await loadConfig({ cwd: dir, trust: true }))?.filepath).toBe(path.join(dir, "plugins.config.json"));
  });

  it("returns null when there is no config", async () => {
    const dir = await tempProject({});
    expect(await loadConfig({ cwd: dir, trust: true })).toBeNull();
  });

  it("loads exactly the file named, relative to cwd or absolute, whatever its name", async () => {
    const dir = await tempProject({
      "plugins.config.json": JSON.stringify({ logLevel: "error" }),
      "configs/dev.ts": `export default { logLevel: "debug" as const };`,
      "configs/prod.yaml": "logLevel: silent\n",
    });
    expect(await loadConfig({ cwd: dir, configPath: "configs/dev.ts" })).toEqual({
      config: { logLevel: "debug" },
      filepath: path.join(dir, "configs/dev.ts"),
      baseDir: path.join(dir, "configs"),
      origin: "named",
    });
    const absolute = path.join(dir, "configs/prod.yaml");
    expect((await loadConfig({ cwd: path.join(dir, "configs"), configPath: absolute }))?.config).toEqual({
      logLevel: "silent",
    });
  });
});

describe("loadConfig reports each problem as one line naming the file", () => {
  it("a config file that does not exist", async () => {
    const dir = await tempProject({});
    await expectConfigError(loadConfig({ cwd: dir, configPath: "./x.ts" }), "config file ./x.ts not found");
  });

  it("a config file type it cannot read", async () => {
    const dir = await tempProject({ "config.toml": "logLevel = 'info'" });
    await expectConfigError(
      loadConfig({ cwd: dir, configPath: "config.toml" }),
      'config.toml: unsupported config file type ".toml"',
    );
  });

  it("a package.json named explicitly without the skills-kernel key", async () => {
    const dir = await tempProject({});
    await expectConfigError(
      loadConfig({ cwd: dir, configPath: "package.json" }),
      'package.json: no "skills-kernel" key',
    );
  });

  it("invalid JSON, with its line and column", async () => {
    const dir = await tempProject({ "plugins.config.json": '{\n  "logLevel": "info",\n}\n' });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), "plugins.config.json: invalid JSON at 3:1");
  });

  it("invalid JSON in .skills-kernelrc.json whose message would quote the file", async () => {
    const dir = await tempProject({ ".skills-kernelrc.json": '{"logLevel": tru}' });
    const error = await expectConfigError(loadConfig({ cwd: dir, trust: true }), ".skills-kernelrc.json: invalid JSON");
    expect(error.message).not.toContain("tru}");
  });

  it("invalid YAML, with its line and column and without the code frame", async () => {
    const dir = await tempProject({ ".skills-kernelrc.yaml": "logLevel: info\nplugins: a: b\n" });
    const error = await expectConfigError(
      loadConfig({ cwd: dir, trust: true }),
      ".skills-kernelrc.yaml: invalid YAML at 2:10",
    );
    expect(error.message).not.toContain("^");
  });

  it.each([
    ["plugins.config.json", ""],
    [".skills-kernelrc.yaml", "\n  \n"],
    [".skills-kernelrc", "# nothing but a comment\n"],
  ])("an empty %s", async (file, content) => {
    const dir = await tempProject({ [file]: content });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), `${file}: is empty`);
  });

  it("a TypeScript syntax error, with its line and column", async () => {
    const dir = await tempProject({
      "plugins.config.ts": `const level: string = "info";\nconst x = ;\nexport default {};\n`,
    });
    await expectConfigError(
      loadConfig({ cwd: dir, trust: true }),
      "plugins.config.ts: cannot load: syntax error at 2:",
    );
  });

  it("a config that throws while it loads", async () => {
    const dir = await tempProject({ "plugins.config.ts": `throw new Error("no\\nway");\nexport default {};\n` });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), "plugins.config.ts: cannot load: no way");
  });

  it.each([
    ["plugins.config.ts", `import { roots } from "./missing.ts";\nexport default { plugins: [roots] };`],
    ["plugins.config.mjs", `import { roots } from "./missing.mjs";\nexport default { plugins: [roots] };`],
    ["plugins.config.mjs", `import "not-installed-anywhere";\nexport default {};`],
  ])("an import in %s that fails (%#)", async (file, content) => {
    const dir = await tempProject({ [file]: content });
    const error = await expectConfigError(loadConfig({ cwd: dir, trust: true }), `${file}: cannot load: `);
    expect(error.message).toMatch(/missing|not-installed-anywhere/);
    expect(error.message).not.toContain("Require stack");
  });

  it("a module without a default export", async () => {
    const dir = await tempProject({ "plugins.config.mjs": `export const plugins = [];` });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), "plugins.config.mjs: has no default export");
  });

  it.each([
    [
      "plugins.config.mjs",
      `export default () => ({ plugins: [] });`,
      "the default export must be an object, got a function",
    ],
    ["plugins.config.ts", `export default null;`, "the default export must be an object, got null"],
    ["plugins.config.json", `["fs"]`, "the config must be an object, got an array"],
    [".skills-kernelrc.yml", `- fs\n`, "the config must be an object, got an array"],
    ["package.json", JSON.stringify({ "skills-kernel": "fs" }), 'the "skills-kernel" key must be an object, got "fs"'],
  ])("a config in %s that is not an object", async (file, content, problem) => {
    const dir = await tempProject({ [file]: content });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), `${file}: ${problem}`);
  });

  it.each([
    [{ plugin: ["fs"] }, 'unknown key "plugin" (expected plugins, transport, logLevel, startup)'],
    [{ logLevel: "loud" }, 'logLevel: expected one of silent, error, warn, info, debug, got "loud"'],
    [{ plugins: "fs" }, 'plugins: expected an array, got "fs"'],
    [{ transport: "" }, "transport: expected a transport name"],
    [{ startup: { onPluginError: "stop" } }, 'startup.onPluginError: expected one of abort, continue, got "stop"'],
    [{ startup: { setupTimeoutMs: 0 } }, "startup.setupTimeoutMs: expected a positive integer (milliseconds)"],
    [{ startup: { setupTimeoutMs: 1.5 } }, "startup.setupTimeoutMs: expected a positive integer (milliseconds)"],
    [{ startup: { plugins: { "@acme/x": { timeout: 5 } } } }, 'startup.plugins["@acme/x"]: unknown key "timeout"'],
    [
      { startup: { plugins: { fs: { onPluginError: "ignore" } } } },
      "startup.plugins.fs.onPluginError: expected one of",
    ],
    [{ startup: null }, "startup: expected an object, got null"],
  ])("a field that is wrong: %j", async (config, problem) => {
    const dir = await tempProject({ "plugins.config.mjs": `export default ${JSON.stringify(config)};` });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), `plugins.config.mjs: ${problem}`);
  });

  it("every wrong field at once", async () => {
    const dir = await tempProject({ "plugins.config.json": JSON.stringify({ logLevel: 1, transport: 2 }) });
    await expectConfigError(loadConfig({ cwd: dir, trust: true }), "plugins.config.json: transport: ", "; logLevel: ");
  });

  it("a config outside the working folder is named by its absolute path", async () => {
    const dir = await tempProject({ "plugins.config.json": `{"logLevel": "loud"}`, "sub/.keep": "" });
    await expectConfigError(
      loadConfig({ cwd: path.join(dir, "sub"), trust: true }),
      `${path.join(dir, "plugins.config.json")}: logLevel`,
    );
  });
});
