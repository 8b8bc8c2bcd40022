import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/**
 * The trust model (docs/configuration.md#trust) through the shipped bundle. An MCP host starts the
 * server in whatever folder is open, so a cloned repository must not get its code run by being
 * there. Each config here that runs code leaves a marker file when it does.
 */
let work: string;
let count = 0;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "sk-trust-")));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const SKILL = "---\nname: alpha\ndescription: A skill.\n---\n# alpha\n";
const LIST = JSON.stringify({ plugins: [["fs", { roots: ["./skills"] }], "list-skills"] });

/** Files under a fresh folder (no package.json unless given); returns the folder. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = join(work, String(count++));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), content);
  }
  return dir;
}

/** A module that leaves `marker` behind when it runs, and is a valid config. */
function codeConfig(marker: string): string {
  return `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default ${LIST};\n`;
}

function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
}

describe("a config found by searching runs no code unless allowed", () => {
  it("refuses a JS config with one line saying how to allow it, without running it", async () => {
    const dir = await tree({ "package.json": "{}", "plugins.config.mjs": "", "skills/alpha/SKILL.md": SKILL });
    const marker = join(dir, "ran");
    await writeFile(join(dir, "plugins.config.mjs"), codeConfig(marker));
    const result = await runCli(["list"], { cwd: dir });
    expectOneLine(
      result,
      /^skills-kernel: plugins\.config\.mjs was found by searching and is a JS\/TS config, which runs code: to run it, name it with --config plugins\.config\.mjs, or pass --trust-config \(or set SKILLS_KERNEL_TRUST_CONFIG=1\)$/m,
    );
    expect(existsSync(marker)).toBe(false);

    // Each way of allowing it.
    for (const [args, env] of [
      [["--config", "plugins.config.mjs"], {}],
      [["--trust-config"], {}],
      [[], { SKILLS_KERNEL_TRUST_CONFIG: "1" }],
    ] as const) {
      const allowed = await runCli(["list", ...args], { cwd: dir, env });
      expect(allowed, JSON.stringify({ args, env })).toMatchObject({ code: 0, stdout: "alpha\n" });
    }
    expect(existsSync(marker)).toBe(true);
  });

  it.each([
    ["plugins.config.json", JSON.stringify({ plugins: ["list-skills", "./plugin.mjs"] }), '"./plugin.mjs"'],
    [".skills-kernelrc", "plugins: [list-skills, skills-kernel-plugin-evil]\n", '"skills-kernel-plugin-evil"'],
    ["package.json", JSON.stringify({ "skills-kernel": { plugins: [["@acme/evil", {}]] } }), '"@acme/evil"'],
  ])("refuses a data config (%s) that names a plugin module", async (file, content, named) => {
    const dir = await tree({ "package.json": "{}", [file]: content });
    const result = await runCli(["list"], { cwd: dir });
    expectOneLine(result, new RegExp(`${file.replace(/\./g, "\\.")} was found by searching and names plugin module ${named}, which runs code: .*--trust-config`));
  });

  it("refuses a bad SKILLS_KERNEL_TRUST_CONFIG rather than guess", async () => {
    const dir = await tree({ "package.json": "{}" });
    expectOneLine(await runCli(["list"], { cwd: dir, env: { SKILLS_KERNEL_TRUST_CONFIG: "yes please" } }), /SKILLS_KERNEL_TRUST_CONFIG must be 1 or 0/);
  });
});

describe("a source named on the command line means no config search at all", () => {
  it("runs neither a config nor cosmiconfig-style meta configs from the working folder", async () => {
    const dir = await tree({ "package.json": "{}", "skills/alpha/SKILL.md": SKILL });
    await writeFile(join(dir, "plugins.config.mjs"), codeConfig(join(dir, "ran-config")));
    // cosmiconfig, which the loader once used, ran .config/config.js from the working folder.
    await mkdir(join(dir, ".config"));
    await writeFile(join(dir, ".config/config.js"), codeConfig(join(dir, "ran-meta")));
    for (const args of [["--skills-dir", "skills"], ["--skills-dir", "skills", "--trust-config"]]) {
      const result = await runCli(["list", ...args], { cwd: dir });
      expect(result).toMatchObject({ code: 0, stdout: "alpha\n", stderr: "" });
    }
    // A catalog nobody serves (connection refused on loopback): the boot may fail, the config never runs.
    await runCli(["list", "--catalog", "http://127.0.0.1:9/skills.json"], { cwd: dir });
    expect(existsSync(join(dir, "ran-config"))).toBe(false);
    expect(existsSync(join(dir, "ran-meta"))).toBe(false);
  });
});

describe("the search stops at the project root", () => {
  it("stops at a folder holding .git, not only package.json", async () => {
    const dir = await tree({ "plugins.config.json": LIST, "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/src/.keep": "" });
    const result = await runCli(["list", "--log-level", "debug"], { cwd: join(dir, "repo/src"), env: { HOME: join(dir, "home") } });
    expect(result.stderr).not.toContain("plugins.config.json");
    expect(result.stderr).toContain("no config file found");
  });

  it("never climbs to the home folder or above when no project root is found", async () => {
    const home = await tree({ "plugins.config.json": LIST, "skills/alpha/SKILL.md": SKILL, "notes/today/.keep": "" });
    const below = await runCli(["list", "--log-level", "debug"], { cwd: join(home, "notes/today"), env: { HOME: home } });
    expect(below.stderr).toContain("no config file found");
    // Started in the home folder itself, its config is the working folder's own.
    const at = await runCli(["list"], { cwd: home, env: { HOME: home } });
    expect(at).toMatchObject({ code: 0, stdout: "alpha\n" });
  });
});

describe("the config in use is named at info level", () => {
  it("logs the file and how it was found", async () => {
    const dir = await tree({ "package.json": "{}", "plugins.config.json": LIST, "skills/alpha/SKILL.md": SKILL });
    const found = await runCli(["list", "--log-level", "info"], { cwd: dir });
    expect(found.stderr).toContain(`info: config: ${join(dir, "plugins.config.json")} (found by searching)`);
    const named = await runCli(["list", "--log-level", "info", "--config", "plugins.config.json"], { cwd: dir });
    expect(named.stderr).toContain(`info: config: ${join(dir, "plugins.config.json")}\n`);
  });
});
