import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadConfig } from "../../src/config/config-loader.js";
import { expectConfigError, tempProject } from "./helpers.js";

const plain = { name: "plain", setup() {} };
const BUILTINS = { fs: async () => plain, "list-skills": async () => plain };

/** A folder tree without the package.json tempProject adds, so no project root is in it. */
async function bareTree(files: Record<string, string>): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "skills-kernel-trust-")));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await writeFile(path.join(dir, relative), content);
  }
  return dir;
}

describe("a config found by searching runs no code unless trusted", () => {
  it.each(["plugins.config.mjs", "plugins.config.ts", "plugins.config.cjs", "skills-kernel.config.js"])(
    "refuses %s before importing it",
    async (file) => {
      // Importing it would throw: the refusal must come first.
      const dir = await tempProject({ [file]: `throw new Error("imported");` });
      const error = await expectConfigError(
        loadConfig({ cwd: dir, builtins: BUILTINS }),
        `${file} was found by searching`,
      );
      expect(error.message).toContain("is a JS/TS config, which runs code");
    },
  );

  it.each([
    ["plugins.config.json", JSON.stringify({ plugins: ["fs", "./evil.mjs"] })],
    [".skills-kernelrc.yaml", "plugins:\n  - [skills-kernel-plugin-x, {}]\n"],
    ["package.json", JSON.stringify({ name: "p", "skills-kernel": { plugins: [["list-skills"], ["@acme/p"]] } })],
  ])("refuses a data config %s naming a plugin module", async (file, content) => {
    // Installed: one that is not is a typo or a missing package first (below).
    const installed = (name: string) => ({
      [`node_modules/${name}/package.json`]: JSON.stringify({ name, main: "index.js" }),
      [`node_modules/${name}/index.js`]: "",
    });
    const dir = await tempProject({ [file]: content, ...installed("skills-kernel-plugin-x"), ...installed("@acme/p") });
    await expectConfigError(
      loadConfig({ cwd: dir, builtins: BUILTINS }),
      `${file} was found by searching and names plugin module`,
    );
  });

  it("says a name that is neither a built-in nor installed is a typo or missing, not code to trust", async () => {
    const typo = await tempProject({ ".skills-kernelrc.yaml": "plugins: [fs, list-skils]\n" });
    await expectConfigError(
      loadConfig({ cwd: typo, builtins: BUILTINS }),
      `.skills-kernelrc.yaml: plugin "list-skils" is not a built-in; did you mean "list-skills"?`,
    );
    const missing = await tempProject({ ".skills-kernelrc.yaml": "plugins: [skills-kernel-plugin-y]\n" });
    await expectConfigError(loadConfig({ cwd: missing, builtins: BUILTINS }), "no package of that name is installed");
  });

  it("loads a data config naming only built-ins", async () => {
    const dir = await tempProject({ ".skills-kernelrc": "plugins: [fs, list-skills]\n" });
    expect((await loadConfig({ cwd: dir, builtins: BUILTINS }))?.config).toEqual({ plugins: ["fs", "list-skills"] });
  });

  it("runs either kind when trusted, and any named config", async () => {
    const dir = await tempProject({ "plugins.config.mjs": `export default { plugins: ["./p.mjs"] };` });
    expect((await loadConfig({ cwd: dir, trust: true }))?.origin).toBe("found");
    expect((await loadConfig({ cwd: dir, configPath: "plugins.config.mjs" }))?.origin).toBe("named");
  });

  it("says how to allow it, in the caller's words", async () => {
    const dir = await tempProject({ "plugins.config.mjs": `export default {};` });
    await expectConfigError(
      loadConfig({ cwd: dir, trustHint: (file) => `use --config ${path.basename(file)}` }),
      "which runs code: use --config plugins.config.mjs",
    );
  });
});

describe("a config found by searching reaches out only when trusted", () => {
  // A built-in that declares what needs trust, as ranker-hybrid and http do.
  let loads = 0;
  const declaring = {
    name: "declaring",
    needsTrust: { options: { url: "texts are sent there", keyEnv: "that variable is sent to url" } },
    setup() {},
  };
  const builtins = {
    ...BUILTINS,
    declaring: async () => (loads++, declaring),
    listener: async () => ({ name: "listener", needsTrust: { plugin: "it opens a listener" }, setup() {} }),
  };

  it("refuses an option the plugin marks, naming the file, the plugin, each option and why", async () => {
    const dir = await tempProject({
      ".skills-kernelrc.yaml": "plugins:\n  - fs\n  - [declaring, { keyEnv: HOME, url: 'http://x', other: 1 }]\n",
    });
    await expectConfigError(
      loadConfig({ cwd: dir, builtins, trustHint: () => "trust it" }),
      '.skills-kernelrc.yaml was found by searching and sets plugin "declaring" option url (texts are sent there) and option keyEnv (that variable is sent to url): trust it',
    );
  });

  it("lets the same plugin in without the marked options, and everything when trusted", async () => {
    const dir = await tempProject({ ".skills-kernelrc": "plugins: [[declaring, { other: 1 }]]\n" });
    expect((await loadConfig({ cwd: dir, builtins }))?.config.plugins).toEqual([["declaring", { other: 1 }]]);
    await writeFile(
      path.join(dir, ".skills-kernelrc"),
      "plugins: [[declaring, { url: 'http://x' }], listener]\ntransport: http\n",
    );
    expect((await loadConfig({ cwd: dir, builtins, trust: true }))?.origin).toBe("found");
    expect((await loadConfig({ cwd: dir, builtins, configPath: ".skills-kernelrc" }))?.origin).toBe("named");
  });

  it("refuses a plugin marked as a whole, and a transport other than stdio", async () => {
    const dir = await tempProject({ "plugins.config.json": JSON.stringify({ plugins: [["fs", {}], ["listener"]] }) });
    await expectConfigError(loadConfig({ cwd: dir, builtins }), 'lists plugin "listener" (it opens a listener)');
    await writeFile(path.join(dir, "plugins.config.json"), JSON.stringify({ plugins: ["fs"], transport: "http" }));
    await expectConfigError(
      loadConfig({ cwd: dir, builtins }),
      'sets transport "http" (a transport other than stdio opens a listener)',
    );
    // A caller that will not start the transport (a one-shot command) reads it, the transport kept.
    expect((await loadConfig({ cwd: dir, builtins, startsTransport: false }))?.config.transport).toBe("http");
    await writeFile(path.join(dir, "plugins.config.json"), JSON.stringify({ plugins: ["fs"], transport: "stdio" }));
    expect((await loadConfig({ cwd: dir, builtins }))?.config.transport).toBe("stdio");
  });

  it("finds marked options inside presets", async () => {
    const dir = await tempProject({
      "plugins.config.json": JSON.stringify({ plugins: [["fs", [["declaring", { url: "http://x" }]]]] }),
    });
    await expectConfigError(loadConfig({ cwd: dir, builtins }), 'plugin "declaring" option url');
  });

  it("refuses modules before loading any built-in's declaration", async () => {
    loads = 0;
    const dir = await tempProject({ "plugins.config.json": JSON.stringify({ plugins: ["declaring", "./evil.mjs"] }) });
    await expectConfigError(loadConfig({ cwd: dir, builtins }), 'names plugin module "./evil.mjs"');
    expect(loads).toBe(0);
  });
});

describe("the search stops at the project root", () => {
  it("takes .git as a project root, as package.json", async () => {
    const dir = await bareTree({ "plugins.config.json": "{}", "repo/.git/HEAD": "", "repo/src/.keep": "" });
    expect(await loadConfig({ cwd: path.join(dir, "repo/src") })).toBeNull();
  });

  it("searches only the working folder when no project root lies below home", async () => {
    const home = await bareTree({ "plugins.config.json": JSON.stringify({ logLevel: "warn" }), "work/sub/.keep": "" });
    expect(await loadConfig({ cwd: path.join(home, "work/sub"), home })).toBeNull();
    // Nor does a marker in home itself make home the project root of a folder below it.
    await writeFile(path.join(home, "package.json"), "{}");
    expect(await loadConfig({ cwd: path.join(home, "work/sub"), home })).toBeNull();
    // Started in home itself, home is the working folder and is searched.
    expect((await loadConfig({ cwd: home, home }))?.config).toEqual({ logLevel: "warn" });
  });
});
