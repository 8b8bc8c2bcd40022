import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { resolvePluginEntries, type ResolvePluginOptions } from "../../src/config/plugin-resolver.js";
import type { PluginEntry } from "../../src/kernel/config.js";
import type { Plugin } from "../../src/kernel/types.js";
import { expectConfigError, tempProject } from "./helpers.js";

const SOURCE = "plugins.config.ts";

function plugin(name: string, extra: Partial<Plugin<any>> = {}): Plugin<any> {
  return { name, setup() {}, ...extra };
}

const fs = plugin("fs");
const listSkills = plugin("list-skills");

function options(baseDir: string, builtins: ResolvePluginOptions["builtins"] = {}): ResolvePluginOptions {
  return {
    baseDir,
    builtins: { fs: async () => fs, "list-skills": async () => listSkills, ...builtins },
    source: SOURCE,
  };
}

/** Resolves entries that need no files (built-in names and plugin objects). */
function resolveInMemory(entries: readonly unknown[]) {
  return resolvePluginEntries(entries as PluginEntry[], options("/nowhere"));
}

/** A plugin module's source, ESM. */
const pluginModule = (name: string) => `export default { name: ${JSON.stringify(name)}, setup() {} };\n`;

describe("resolvePluginEntries", () => {
  it("resolves built-in short names, loading only the built-ins named", async () => {
    const unused = vi.fn(async () => plugin("unused"));
    const resolved = await resolvePluginEntries(["fs"], options("/nowhere", { unused }));
    expect(resolved).toEqual([{ plugin: fs, options: undefined, origin: "fs" }]);
    expect(unused).not.toHaveBeenCalled();
  });

  it("takes [name, options] and [plugin, options], keeping the options as given", async () => {
    const inline = plugin("inline");
    const roots = { roots: ["./skills"] };
    expect(
      await resolveInMemory([
        ["fs", roots],
        [inline, { deep: { a: 1 } }],
      ]),
    ).toEqual([
      { plugin: fs, options: roots, origin: "fs" },
      { plugin: inline, options: { deep: { a: 1 } }, origin: "inline" },
    ]);
  });

  it("takes inline plugin objects", async () => {
    const inline = plugin("inline", { dependsOn: ["fs"] });
    expect(await resolveInMemory([inline])).toEqual([{ plugin: inline, options: undefined, origin: "inline" }]);
  });

  it("flattens presets in place, however nested, and tells a preset of two from [name, options]", async () => {
    const [a, b, c] = [plugin("a"), plugin("b"), plugin("c")];
    const resolved = await resolveInMemory([a, ["fs", [b, ["list-skills", { limit: 1 }]]], [c]]);
    expect(resolved.map(({ plugin, options }) => [plugin.name, options])).toEqual([
      ["a", undefined],
      ["fs", undefined],
      ["b", undefined],
      ["list-skills", { limit: 1 }],
      ["c", undefined],
    ]);
    const pairs = await resolveInMemory([["fs", "list-skills"]]);
    expect(pairs.map(({ plugin }) => plugin.name)).toEqual(["fs", "list-skills"]);
    const plugins = await resolveInMemory([[a, b]]);
    expect(plugins.map(({ plugin }) => plugin.name)).toEqual(["a", "b"]);
  });

  it("imports module paths relative to baseDir, absolute ones, and TypeScript ones", async () => {
    const dir = await tempProject({
      "plugins/esm.mjs": pluginModule("esm"),
      "plugins/typed.ts": `import type { Plugin } from "./types.ts";\nconst typed: Plugin = { name: "typed", setup() {} };\nexport default typed;\n`,
      "plugins/types.ts": `export interface Plugin { name: string; setup(): void }\n`,
      "plugins/common.cjs": `module.exports = { name: "common", setup() {} };\n`,
      "plugins/named.mjs": `export const name = "named";\nexport function setup() {}\n`,
      "abs/absolute.mjs": pluginModule("absolute"),
    });
    const absolute = path.join(dir, "abs/absolute.mjs");
    const entries = [
      "./plugins/esm.mjs",
      ["./plugins/typed.ts", { x: 1 }],
      "./plugins/common.cjs",
      "./plugins/named.mjs",
      absolute,
    ];
    const resolved = await resolvePluginEntries(entries as PluginEntry[], options(dir));
    expect(resolved.map(({ plugin, options, origin }) => [plugin.name, options, origin])).toEqual([
      ["esm", undefined, "./plugins/esm.mjs"],
      ["typed", { x: 1 }, "./plugins/typed.ts"],
      ["common", undefined, "./plugins/common.cjs"],
      ["named", undefined, "./plugins/named.mjs"],
      ["absolute", undefined, absolute],
    ]);
  });

  it("imports npm packages installed for the project, scoped or not, through their exports", async () => {
    const dir = await tempProject({
      "node_modules/skills-kernel-plugin-x/package.json": JSON.stringify({
        name: "skills-kernel-plugin-x",
        type: "module",
        exports: "./lib/main.js",
      }),
      "node_modules/skills-kernel-plugin-x/lib/main.js": pluginModule("x"),
      "node_modules/@acme/plugins/package.json": JSON.stringify({
        name: "@acme/plugins",
        type: "module",
        exports: { ".": "./index.js", "./extra": { import: "./extra.js", require: "./extra.cjs" } },
      }),
      "node_modules/@acme/plugins/index.js": pluginModule("acme"),
      "node_modules/@acme/plugins/extra.js": pluginModule("acme-extra"),
      "config/.keep": "",
    });
    // Resolved from baseDir (here a sub-folder), not from the kernel's own node_modules.
    const resolved = await resolvePluginEntries(
      ["skills-kernel-plugin-x", "@acme/plugins", ["@acme/plugins/extra", { on: true }]],
      options(path.join(dir, "config")),
    );
    expect(resolved.map(({ plugin, options, origin }) => [plugin.name, options, origin])).toEqual([
      ["x", undefined, "skills-kernel-plugin-x"],
      ["acme", undefined, "@acme/plugins"],
      ["acme-extra", { on: true }, "@acme/plugins/extra"],
    ]);
  });

  it("prefers a built-in to an installed package of the same name", async () => {
    const dir = await tempProject({
      "node_modules/fs-plugin/package.json": JSON.stringify({
        name: "fs-plugin",
        type: "module",
        exports: "./index.js",
      }),
      "node_modules/fs-plugin/index.js": `throw new Error("should not be imported");\n`,
    });
    const builtin = plugin("fs-plugin");
    const resolved = await resolvePluginEntries(["fs-plugin"], options(dir, { "fs-plugin": async () => builtin }));
    expect(resolved[0]?.plugin).toBe(builtin);
  });
});

describe("resolvePluginEntries reports each problem as one line", () => {
  it.each(["nope", "@acme/nope", "path"])("a package name that is not installed: %s", async (name) => {
    const dir = await tempProject({});
    await expectConfigError(
      resolvePluginEntries([name], options(dir)),
      `${SOURCE}: plugin "${name}" is not a built-in, and no package of that name is installed (looked in node_modules in ${dir} and every folder above it): ` +
        `run npm install ${name} in ${dir}; a module path starts with "./"; built-ins: fs, list-skills`,
    );
  });

  it.each(["Not A Name", "node:fs"])("a name no package could have: %s", async (name) => {
    const dir = await tempProject({});
    await expectConfigError(
      resolvePluginEntries([name], options(dir)),
      `${SOURCE}: plugin "${name}" is not a built-in (built-ins: fs, list-skills), a module path or an npm package name`,
    );
  });

  it.each([
    ["lst-skills", "list-skills"],
    ["List-Skils", "list-skills"],
  ])("a slip of a built-in's name: %s", async (name, meant) => {
    const dir = await tempProject({});
    await expectConfigError(
      resolvePluginEntries([name], options(dir)),
      `${SOURCE}: plugin "${name}" is not a built-in; did you mean "${meant}"?`,
    );
  });

  it("a module path that does not exist", async () => {
    const dir = await tempProject({});
    await expectConfigError(
      resolvePluginEntries(["./missing.mjs"], options(dir)),
      `${SOURCE}: cannot load plugin module ./missing.mjs: ${path.join(dir, "missing.mjs")} does not exist`,
    );
  });

  it.each([
    ["./throws.ts", `throw new Error("plugin\\nbroke");\nexport default {};\n`, "plugin broke"],
    ["./syntax.ts", `export default { name: "x", setup() {} ;\n`, "syntax error at 1:"],
    ["./imports.ts", `import "./gone.ts";\nexport default {};\n`, "gone.ts"],
  ])("a module that fails to load: %s", async (ref, content, reason) => {
    const dir = await tempProject({ [ref]: content });
    const error = await expectConfigError(
      resolvePluginEntries([ref], options(dir)),
      `${SOURCE}: cannot load plugin module ${ref}: `,
      reason,
    );
    expect(error.message).not.toContain("Require stack");
  });

  it("an installed package whose exports hide its entry point", async () => {
    const dir = await tempProject({
      "node_modules/hidden/package.json": JSON.stringify({
        name: "hidden",
        type: "module",
        exports: { "./x": "./x.js" },
      }),
      "node_modules/hidden/x.js": pluginModule("x"),
    });
    await expectConfigError(
      resolvePluginEntries(["hidden"], options(dir)),
      `${SOURCE}: cannot load plugin module hidden: `,
    );
  });

  it.each([
    [
      "./nothing.mjs",
      `export const version = 1;\n`,
      "./nothing.mjs does not export a plugin (expected a default export with name and setup)",
    ],
    ["./data.mjs", `export default [1, 2];\n`, "./data.mjs does not export a plugin"],
    [
      "./factory.mjs",
      `export default () => ({ name: "f", setup() {} });\n`,
      "./factory.mjs exports a function, not a plugin object",
    ],
    [
      "./unnamed.mjs",
      `export default { setup() {} };\n`,
      "./unnamed.mjs: a plugin needs a name (a non-empty string), got undefined",
    ],
    [
      "./no-setup.mjs",
      `export default { name: "half" };\n`,
      'plugin "half" (./no-setup.mjs): setup must be a function',
    ],
  ])("a module that does not export a valid plugin: %s", async (ref, content, problem) => {
    const dir = await tempProject({ [ref]: content });
    await expectConfigError(resolvePluginEntries([ref], options(dir)), `${SOURCE}: ${problem}`);
  });

  it.each([
    [{ name: "", setup() {} }, 'plugins[0]: a plugin needs a name (a non-empty string), got ""'],
    [{ name: 7, setup() {} }, "plugins[0]: a plugin needs a name (a non-empty string), got 7"],
    [{ name: "p", setup: "yes" }, 'plugin "p" (plugins[0]): setup must be a function'],
    [{ name: "p", setup() {}, dependsOn: "fs" }, 'plugin "p" (plugins[0]): dependsOn must be an array of plugin names'],
    [{ name: "p", setup() {}, dependsOn: [1] }, 'plugin "p" (plugins[0]): dependsOn must be an array of plugin names'],
    [{ name: "p", setup() {}, options: { parse() {} } }, 'plugin "p" (plugins[0]): options must be a Standard Schema'],
  ])("an inline plugin of the wrong shape: %j", async (value, problem) => {
    await expectConfigError(resolveInMemory([value]), `${SOURCE}: ${problem}`);
  });

  it("accepts a Standard Schema for options", async () => {
    const schema = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } };
    expect(await resolveInMemory([{ name: "p", setup() {}, options: schema }])).toHaveLength(1);
  });

  it.each([
    [[42], "plugins[0]", "got 42"],
    [[null], "plugins[0]", "got null"],
    [["fs", [{ version: 1 }]], "plugins[1][0]", "got an object (options go with their plugin: [name, options])"],
    [[new Map()], "plugins[0]", "got an object"],
    [[() => plugin("lazy")], "plugins[0]", "got a function (a plugin factory must be called: myPlugin({ ... }))"],
    [[["fs", undefined]], "plugins[0][1]", "got undefined"],
  ])("an entry that is not a plugin: %#", async (entries, at, got) => {
    await expectConfigError(
      resolveInMemory(entries),
      `${SOURCE}: ${at}: expected a plugin name, [name, options], a plugin object or an array of them, ${got}`,
    );
  });

  it("a preset that contains itself", async () => {
    const preset: unknown[] = ["fs"];
    preset.push(preset);
    await expectConfigError(resolveInMemory([preset]), `${SOURCE}: plugins[0][1]`, "presets nested more than 16 deep");
  });

  it.each([
    [["fs", "fs"], "plugins[0] and plugins[1]"],
    [["fs", ["list-skills", plugin("fs")]], "plugins[0] and plugins[1][1]"],
  ])("a plugin listed twice: %#", async (entries, positions) => {
    await expectConfigError(resolveInMemory(entries), `${SOURCE}: plugin "fs" is listed twice (${positions})`);
  });

  it("the first problem in config order, however long each entry takes to load", async () => {
    const dir = await tempProject({ "slow.ts": `throw new Error("slow one");\n` });
    await expectConfigError(resolvePluginEntries(["./slow.ts", "nope"], options(dir)), "slow one");
  });
});
