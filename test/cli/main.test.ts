import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { VERSION } from "../../src/version.js";
import { runMain, testIo, type InProcessResult } from "../helpers/cli-in-process.js";

/**
 * The CLI's main, run in this process with its streams, environment, working folder and exit
 * injected: what it prints and the exit code it returns for each kind of use and mistake. What only
 * a process shows (the bundle, signals, pipes, other runtimes) stays in test/e2e.
 */
let work: string;
beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "sk-main-")));
  // A package.json stops the config search here, so the repository's own config is never picked up.
  await writeFile(join(work, "package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const run = (argv: string[], env: Record<string, string> = {}) => runMain(argv, { cwd: work, env });

/** A user mistake: the exit code its kind has, one line on stderr, no stack trace, nothing on stdout. */
function expectOneLine(result: InProcessResult, code: number, pattern: RegExp) {
  expect(result.stdout).toBe("");
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^skills-kernel: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.code, result.stderr).toBe(code);
  expect(result.exits).toEqual([]);
}

async function skill(root: string, folder: string, name: string, description: string) {
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, folder, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`);
}

describe("version and help", () => {
  it("prints its version, exit 0", async () => {
    expect(await run(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "", exits: [] });
    expect((await run(["-v"])).stdout).toBe(`${VERSION}\n`);
  });

  it("prints the general help without a command, a command's with one", async () => {
    const general = await run(["--help"]);
    expect(general).toMatchObject({ code: 0, stderr: "" });
    expect(general.stdout).toMatch(/^skills-kernel: serve Agent Skills to AI agents over MCP\n/);
    const list = await run(["list", "-h"]);
    expect(list.stdout).toMatch(/^Usage: skills-kernel list \[OPTIONS\]\n/);
  });
});

describe("usage mistakes: one line, exit 2", () => {
  it.each([
    [["--bogus"], /^skills-kernel: unknown option --bogus; see skills-kernel serve --help$/],
    [
      ["search", "x", "--format", "json"],
      /^skills-kernel: search takes no --format option \(list, audit, doctor, .*take it\); see skills-kernel search --help$/,
    ],
    [["frobnicate"], /unknown command "frobnicate"; commands: serve, list/],
    [["list", "extra"], /unexpected argument "extra"/],
    [["--log-level", "loud"], /--log-level must be one of silent, error, warn, info, debug, not "loud"/],
    [["list", "--format", "xml"], /--format must be one of names-only, json, full, not "xml"/],
    [["audit", ".", "--format", "names-only"], /--format must be one of text, json, sarif, not "names-only"/],
    [["usage", "--format", "full"], /--format must be text or json, not "full"/],
    [["--config"], /--config.*argument/],
    [["search"], /^skills-kernel: search needs QUERY; see --help$/],
    [["export", "skills"], /^skills-kernel: export needs --out SITE; see --help$/],
    [["serve", "--port", "80"], /--port.*apply to serve --transport http/],
    [["serve", "--port", "99999"], /--port must be a whole number from 0 to 65535, not "99999"/],
    [
      ["add", "owner/repo", "--agent", "cursor", "codex"],
      /--agent takes one agent each time: --agent cursor --agent codex/,
    ],
  ])("%j", async (argv, pattern) => {
    expectOneLine(await run(argv), 2, pattern);
  });

  it("gets the command or the option a slip was nearest to", async () => {
    expect(await run(["lst"])).toMatchObject({
      code: 2,
      stdout: "",
      stderr: 'skills-kernel: unknown command "lst"; did you mean list? (skills-kernel --help lists every command)\n',
    });
    expectOneLine(
      await run(["list", "--fromat", "json"]),
      2,
      /^skills-kernel: unknown option --fromat; did you mean --format\?; see skills-kernel list --help$/,
    );
    // npx skills' word for a command this CLI spells otherwise.
    expectOneLine(await run(["experimental_install"]), 2, /did you mean restore\?/);
  });

  it("checks SKILLS_KERNEL_TRUST_CONFIG from the environment it is given", async () => {
    expectOneLine(await run(["list"], { SKILLS_KERNEL_TRUST_CONFIG: "maybe" }), 2, /SKILLS_KERNEL_TRUST_CONFIG/);
  });

  it.each([
    [
      ["add", "./skills", "--skills-archive", "team.zip"],
      /^skills-kernel: add does not take --skills-archive: name the source as SOURCE \(skills-kernel add PATH_OR_URL\)$/,
    ],
    [
      ["update", "--catalog", "https://example.com/index.json"],
      /^skills-kernel: update does not take --catalog: it reads the sources skills-lock.json records$/,
    ],
    [
      ["installed", "--config", "plugins.config.json"],
      /^skills-kernel: installed does not take --config: the installed-skills commands read no config$/,
    ],
    [
      ["outdated", "--cache-dir=/tmp/x"],
      /^skills-kernel: outdated does not take --cache-dir: set SKILLS_KERNEL_CACHE_DIR to choose where their downloads go$/,
    ],
  ])("an installed-skills command refuses a flag it would ignore: %j", async (argv, pattern) => {
    expectOneLine(await run(argv), 2, pattern);
  });

  it("--token-env naming a variable the environment does not hold", async () => {
    expectOneLine(
      await run(["outdated", "--token-env", "git.example.com=TEAM_TOKEN"]),
      2,
      /^skills-kernel: --token-env git\.example\.com=TEAM_TOKEN: TEAM_TOKEN is not set$/,
    );
  });
});

describe("config mistakes", () => {
  it("JSON with a trailing comma says where, exit 2", async () => {
    await writeFile(join(work, "comma.json"), '{\n  "plugins": ["fs", "list-skills",]\n}\n');
    expectOneLine(
      await run(["list", "--config", "comma.json"]),
      2,
      /^skills-kernel: comma\.json: invalid JSON at 2:35: /,
    );
    await writeFile(join(work, "member.json"), '{\n  "plugins": ["list-skills"],\n}\n');
    expectOneLine(
      await run(["list", "--config", "member.json"]),
      2,
      /^skills-kernel: member\.json: invalid JSON at 3:1: /,
    );
  });
});

describe("config mistakes exit 2 with one line naming file, plugin and problem", () => {
  const cases: [string, string, string, RegExp][] = [
    ["missing file", "", "--config=nope.config.ts", /config file .*nope\.config\.ts.* not found/],
    ["syntax error", "broken.config.mjs", "export default {{", /broken\.config\.mjs/],
    [
      "unknown plugin",
      "unknown.config.mjs",
      'export default { plugins: ["no-such-plugin"] }',
      /unknown\.config\.mjs.*"no-such-plugin"/,
    ],
    [
      "bad option",
      "badopt.config.mjs",
      'export default { plugins: [["fs", { roots: [42] }], "list-skills"] }',
      /badopt\.config\.mjs: plugin "fs": option roots\[0\]/,
    ],
    ["unknown key", "typo.config.json", '{ "plugin": [] }', /typo\.config\.json/],
    [
      "missing dependency",
      "deps.config.mjs",
      'export default { plugins: [{ name: "needs-db", dependsOn: ["db"], setup() {} }] }',
      /deps\.config\.mjs: plugin "needs-db" depends on "db", which is not in the config/,
    ],
  ];
  it.each(cases)("%s", async (_label, file, content, pattern) => {
    if (file) await writeFile(join(work, file), content);
    const flag = file ? `--config=${file}` : content;
    expectOneLine(await run(["list", flag]), 2, pattern);
  });

  it("a missing --skills-dir", async () => {
    expectOneLine(await run(["list", "--skills-dir", "no/such/dir"]), 2, /no\/such\/dir.*does not exist/);
  });

  it("an unknown transport, after stopping the plugins it started", async () => {
    await writeFile(join(work, "transport.config.json"), '{ "plugins": ["list-skills"] }');
    expectOneLine(
      // serve logs the config it loaded at info level: only the error line is under test here.
      await run(["--config", "transport.config.json", "--transport", "smoke-signals", "--log-level", "warn"]),
      2,
      /^skills-kernel: --transport: unknown transport "smoke-signals"; serve takes stdio \(the default\), http, or a transport a plugin of the config adds$/,
    );
  });

  it("a config without the list-skills plugin", async () => {
    await writeFile(join(work, "bare.config.json"), '{ "plugins": [] }');
    expectOneLine(await run(["list", "--config", "bare.config.json"]), 2, /add "list-skills" to plugins/);
  });
});

describe("the operation failing: exit 1", () => {
  it("restore with no lock file says there is nothing to restore and how skills get there", async () => {
    expectOneLine(
      await run(["restore"]),
      1,
      new RegExp(
        `^skills-kernel: no skills-lock\\.json in ${work.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: nothing to restore \\(skills-kernel add SOURCE installs skills`,
      ),
    );
  });

  it("read of a name not served", async () => {
    const root = join(work, "read-root");
    await skill(root, "alpha", "alpha", "First skill.");
    const result = await run(["read", "alpah", "--skills-dir", root, "--no-disk-cache"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^skills-kernel: .*alpah/);
  });
});

describe("--format", () => {
  it("list prints names, JSON or the full descriptions, from the folder given, relative to cwd", async () => {
    const root = join(work, "list-root");
    await skill(root, "alpha", "alpha", "First skill.");
    await skill(root, "beta", "beta", "Second skill.");
    const names = await run(["list", "--skills-dir", "list-root", "--no-disk-cache"]);
    expect(names).toMatchObject({ code: 0, stdout: "alpha\nbeta\n", stderr: "" });
    const json = await run(["list", "--format", "json", "--skills-dir", root, "--no-disk-cache"]);
    expect(JSON.parse(json.stdout)).toEqual({
      total: 2,
      skills: [
        { id: "alpha", name: "alpha", description: "First skill.", source: "list-root", path: "alpha" },
        { id: "beta", name: "beta", description: "Second skill.", source: "list-root", path: "beta" },
      ],
    });
    const full = await run(["list", "--format", "full", "--skills-dir", root, "--no-disk-cache"]);
    expect(full.stdout).toContain("## beta\nsource: list-root (beta)\n\nSecond skill.");
  });

  it("audit: --json is --format json; sarif is SARIF 2.1.0", async () => {
    const root = join(work, "audit-root");
    await skill(root, "alpha", "alpha", "First skill.");
    const json = await run(["audit", root, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse((await run(["audit", root, "--format", "json"])).stdout));
    const sarif = await run(["audit", root, "--format", "sarif"]);
    expect(JSON.parse(sarif.stdout)).toMatchObject({ version: "2.1.0" });
  });
});

describe("what main hooks in its process", () => {
  it("takes back its crash handlers when it returns", async () => {
    const { io } = testIo({ cwd: work });
    const before = [process.listenerCount("uncaughtException"), process.listenerCount("unhandledRejection")];
    expect(await main(["list", "--bogus"], io)).toBe(2);
    expect(await main(["--version"], io)).toBe(0);
    expect([process.listenerCount("uncaughtException"), process.listenerCount("unhandledRejection")]).toEqual(before);
  });

  it.each([
    ["EPIPE", [0], ""],
    ["EIO", [1], "skills-kernel: cannot write to stdout: disk on fire\n"],
  ])("a stdout failing with %s asks to exit %j", async (code, exits, stderr) => {
    const root = join(work, "pipe-root");
    await skill(root, "alpha", "alpha", "First skill.");
    const { io, stderr: errors, exits: asked } = testIo({ cwd: work });
    const failing = new Writable({
      write: (_chunk, _encoding, done) => done(Object.assign(new Error("disk on fire"), { code })),
    });
    await main(["list", "--skills-dir", root, "--no-disk-cache"], { ...io, stdout: failing });
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(exits);
    expect(errors.text()).toBe(stderr);
  });
});
