import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { freePort } from "../helpers/free-port.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startEmbeddingsFixture } from "../plugins/rankers/ranker-hybrid/fixture-server.js";

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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
    // Installed, as a package a cloned repository could bring along: a name that is not is a typo first (below).
    const installed = (name: string) => ({
      [`node_modules/${name}/package.json`]: JSON.stringify({ name, type: "module", main: "index.js" }),
      [`node_modules/${name}/index.js`]: "export default {};\n",
    });
    const dir = await tree({
      "package.json": "{}",
      "plugin.mjs": "export default {};\n",
      ...installed("skills-kernel-plugin-evil"),
      ...installed("@acme/evil"),
      [file]: content,
    });
    const result = await runCli(["list"], { cwd: dir });
    expectOneLine(
      result,
      new RegExp(
        `${file.replace(/\./g, "\\.")} was found by searching and names plugin module ${named}, which runs code: .*--trust-config`,
      ),
    );
  });

  it("reads a built-in's typo in a found config as a typo, not as code to trust", async () => {
    const dir = await tree({ "package.json": "{}", "plugins.config.yaml": "plugins: [fs, serach-skills]\n" });
    const result = await runCli(["list"], { cwd: dir });
    expectOneLine(
      result,
      /^skills-kernel: plugins\.config\.yaml: plugin "serach-skills" is not a built-in; did you mean "search-skills"\?$/m,
    );
    const named = await runCli(["list", "--config", "plugins.config.yaml"], { cwd: dir });
    expectOneLine(
      named,
      /^skills-kernel: plugins\.config\.yaml: plugin "serach-skills" is not a built-in; did you mean "search-skills"\?$/m,
    );
  });

  it("says a found config's package is not installed, and how to install it, before any trust question", async () => {
    const dir = await tree({
      "package.json": "{}",
      "plugins.config.yaml": "plugins: [fs, skills-kernel-plugin-absent]\n",
    });
    expectOneLine(
      await runCli(["list"], { cwd: dir }),
      /^skills-kernel: plugins\.config\.yaml: plugin "skills-kernel-plugin-absent" is not a built-in, and no package of that name is installed .*run npm install skills-kernel-plugin-absent in /m,
    );
  });

  it("refuses a YAML config with an unknown tag in one line, not a multi-line warning", async () => {
    const dir = await tree({
      "package.json": "{}",
      ".skills-kernelrc.yaml": "plugins: [list-skills]\nlogLevel: !evil warn\n",
    });
    expectOneLine(
      await runCli(["list"], { cwd: dir }),
      /^skills-kernel: \.skills-kernelrc\.yaml: invalid YAML at 2:11: Unresolved tag: !evil$/m,
    );
  });

  it("refuses a bad SKILLS_KERNEL_TRUST_CONFIG rather than guess, even where no config is read", async () => {
    const dir = await tree({ "package.json": "{}", "skills/alpha/SKILL.md": SKILL });
    for (const args of [["list"], ["list", "--skills-dir", "skills"]])
      expectOneLine(
        await runCli(args, { cwd: dir, env: { SKILLS_KERNEL_TRUST_CONFIG: "yes please" } }),
        /SKILLS_KERNEL_TRUST_CONFIG must be 1 or 0/,
      );
  });
});

describe("a config found by searching reaches the network, the environment or a listener only when trusted", () => {
  const TRUST_HINT =
    "to run it, name it with --config .skills-kernelrc.yaml, or pass --trust-config (or set SKILLS_KERNEL_TRUST_CONFIG=1)";

  it("never sends an environment variable or the skills to a ranker-hybrid URL it names", async () => {
    const endpoint = await startEmbeddingsFixture();
    try {
      const config = `plugins:\n  - [fs, { roots: [./skills] }]\n  - search-skills\n  - [ranker-hybrid, { url: "${endpoint.url}", model: x, apiKeyEnv: SK_TEST_SECRET }]\n`;
      const dir = await tree({ "package.json": "{}", ".skills-kernelrc.yaml": config, "skills/alpha/SKILL.md": SKILL });
      const env = { SK_TEST_SECRET: "the-users-secret" };
      for (const args of [[], ["search", "alpha"]]) {
        expectOneLine(
          await runCli(args, { cwd: dir, env }),
          new RegExp(
            `^skills-kernel: \\.skills-kernelrc\\.yaml was found by searching and sets plugin "ranker-hybrid" option url \\(skill texts and queries are sent there\\) and option apiKeyEnv \\(that environment variable's value is sent to url\\): ${escape(TRUST_HINT)}$`,
            "m",
          ),
        );
      }
      expect(endpoint.requests).toEqual([]);

      // Trusted, the same config searches through the endpoint, with the key.
      const trusted = await runCli(["search", "alpha"], { cwd: dir, env: { ...env, SKILLS_KERNEL_TRUST_CONFIG: "1" } });
      expect(trusted).toMatchObject({ code: 0 });
      expect(trusted.stdout).toContain("alpha");
      expect(endpoint.requests.length).toBeGreaterThan(0);
      expect(endpoint.requests[0]!.headers.authorization).toBe("Bearer the-users-secret");
    } finally {
      await endpoint.close();
    }
  });

  it("never turns a stdio start into an HTTP listener", async () => {
    const port = await freePort();
    const http = `[http, { port: ${port}, allowedHosts: [evil.example] }]`;
    const dir = await tree({
      "package.json": "{}",
      ".skills-kernelrc.yaml": `transport: http\nplugins: [[fs, { roots: [./skills] }], list-skills, ${http}]\n`,
      "skills/alpha/SKILL.md": SKILL,
    });
    expectOneLine(
      await runCli([], { cwd: dir }),
      new RegExp(
        `was found by searching and sets transport "http" \\(a transport other than stdio opens a listener\\): ${escape(TRUST_HINT)}$`,
        "m",
      ),
    );
    // A command that answers and exits starts no transport: the config's transport key is no reason to refuse it.
    await writeFile(
      join(dir, ".skills-kernelrc.yaml"),
      `transport: http\nplugins: [[fs, { roots: [./skills] }], list-skills]\n`,
    );
    expect(await runCli(["list"], { cwd: dir })).toMatchObject({ code: 0, stdout: "alpha\n", stderr: "" });
    // Without the transport key, listing the http plugin (whose options would loosen the listener) is refused too.
    await writeFile(
      join(dir, ".skills-kernelrc.yaml"),
      `plugins: [[fs, { roots: [./skills] }], list-skills, ${http}]\n`,
    );
    for (const args of [[], ["serve", "--transport", "http", "--port", "0"]]) {
      expectOneLine(
        await runCli(args, { cwd: dir }),
        /was found by searching and lists plugin "http" \(it opens an HTTP listener\): to run it/,
      );
    }
    await writeFile(
      join(dir, ".skills-kernelrc.yaml"),
      `plugins: [[fs, { roots: [./skills] }], list-skills, rest-api]\n`,
    );
    expectOneLine(
      await runCli(["serve", "--transport", "http", "--port", "0"], { cwd: dir }),
      /lists plugin "rest-api" \(it answers REST requests on the HTTP listener\)/,
    );

    // The user's own --transport http still serves a found config that names no listener.
    await writeFile(join(dir, ".skills-kernelrc.yaml"), `plugins: [[fs, { roots: [./skills] }], list-skills]\n`);
    const served = await startHttpServer([], { cwd: dir });
    await served.stop();
    // Trusted, the config's own listener settings apply.
    await writeFile(
      join(dir, ".skills-kernelrc.yaml"),
      `transport: http\nplugins: [[fs, { roots: [./skills] }], list-skills, [http, { port: 0 }]]\n`,
    );
    const trusted = await startHttpServer(["--trust-config"], { cwd: dir });
    await trusted.stop();
  });

  it("keeps Redis for trusted configs, with a URL or with the loopback default", async () => {
    const dir = await tree({
      "package.json": "{}",
      ".skills-kernelrc.yaml": `plugins: [[fs, { roots: [./skills] }], list-skills, [cache-redis, { url: "redis://127.0.0.1:9/0" }]]\n`,
      "skills/alpha/SKILL.md": SKILL,
    });
    expectOneLine(
      await runCli(["list"], { cwd: dir }),
      /lists plugin "cache-redis" \(it caches skill texts in a Redis server, and reads them back\)/,
    );
    expect(await runCli(["list", "--trust-config"], { cwd: dir })).toMatchObject({ code: 0, stdout: "alpha\n" });
    await writeFile(
      join(dir, ".skills-kernelrc.yaml"),
      `plugins: [[fs, { roots: [./skills] }], list-skills, [cache-redis, { prefix: trust-test }]]\n`,
    );
    expectOneLine(await runCli(["list"], { cwd: dir }), /lists plugin "cache-redis"/);
  });

  it("refuses install targets and private hosts in a found config, so install writes where the user said", async () => {
    const outside = join(work, `outside-${count}`);
    const dir = await tree({
      "package.json": "{}",
      ".skills-kernelrc.yaml": `plugins: [[fs, { roots: [./skills] }], list-skills, [install-skill, { targets: { project: ${JSON.stringify(outside)}, user: "~/.config/autostart" } }]]\n`,
      "skills/alpha/SKILL.md": SKILL,
    });
    const refused = await runCli(["install", "alpha"], { cwd: dir });
    expectOneLine(refused, /sets plugin "install-skill" option targets \(install and install_skill write there\)/);
    expect(existsSync(outside)).toBe(false);
    await writeFile(
      join(dir, ".skills-kernelrc.yaml"),
      `plugins: [[fs, { roots: [./skills] }], list-skills, [install-skill, { privateHosts: [127.0.0.1] }]]\n`,
    );
    expectOneLine(await runCli(["list"], { cwd: dir }), /sets plugin "install-skill" option privateHosts/);
    const trusted = await runCli(["install", "alpha", "--trust-config", "--dry-run"], { cwd: dir });
    expect(trusted.code, trusted.stderr).toBe(0);
  });

  it.each([
    ["git", `[git, { repositories: ["file:///nowhere/repo.git"] }]`, 'sets plugin "git" option repositories'],
    [
      "github",
      `[github, { repositories: [a/b], apiBaseUrl: "http://127.0.0.1:9" }]`,
      'sets plugin "github" option repositories (they are fetched over the network, with GITHUB_TOKEN when it is set) and option apiBaseUrl (GITHUB_TOKEN is sent there)',
    ],
    [
      "http-catalog",
      `[http-catalog, { catalogs: ["http://127.0.0.1:9/c.json"] }]`,
      'sets plugin "http-catalog" option catalogs',
    ],
    ["registry", "registry", 'lists plugin "registry" (it sends queries to a search API and fetches from GitHub'],
  ])("refuses a remote source (%s)", async (_name, entry, message) => {
    const dir = await tree({ "package.json": "{}", ".skills-kernelrc.yaml": `plugins: [list-skills, ${entry}]\n` });
    const result = await runCli(["list"], { cwd: dir });
    expectOneLine(result, /was found by searching/);
    expect(result.stderr).toContain(message);
  });
});

describe("a source named on the command line means no config search at all", () => {
  it("runs neither a config nor cosmiconfig-style meta configs from the working folder", async () => {
    const dir = await tree({ "package.json": "{}", "skills/alpha/SKILL.md": SKILL });
    await writeFile(join(dir, "plugins.config.mjs"), codeConfig(join(dir, "ran-config")));
    // cosmiconfig, which the loader once used, ran .config/config.js from the working folder.
    await mkdir(join(dir, ".config"));
    await writeFile(join(dir, ".config/config.js"), codeConfig(join(dir, "ran-meta")));
    for (const args of [
      ["--skills-dir", "skills"],
      ["--skills-dir", "skills", "--trust-config"],
    ]) {
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
    const dir = await tree({
      "plugins.config.json": LIST,
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/src/.keep": "",
    });
    const result = await runCli(["list", "--log-level", "debug"], {
      cwd: join(dir, "repo/src"),
      env: { HOME: join(dir, "home") },
    });
    expect(result.stderr).not.toContain("plugins.config.json");
    expect(result.stderr).toContain("no config file found");
  });

  it("never climbs to the home folder or above when no project root is found", async () => {
    const home = await tree({ "plugins.config.json": LIST, "skills/alpha/SKILL.md": SKILL, "notes/today/.keep": "" });
    const below = await runCli(["list", "--log-level", "debug"], {
      cwd: join(home, "notes/today"),
      env: { HOME: home },
    });
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
