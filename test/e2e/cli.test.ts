import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { createHostileRoot } from "../fixtures/hostile-root.js";
import { REPO_ROOT, RUNTIMES, runCli } from "../helpers/cli.js";
import { HAS_SCRIPT, needsScript } from "../helpers/tools.js";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-cli-"));
  // A package.json stops the config search here, so the repo's own config is never picked up.
  await writeFile(join(work, "package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function skill(root: string, folder: string, name: string, description: string) {
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, folder, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`);
}

/** A user mistake: non-zero exit, exactly one line on stderr, no stack trace, nothing on stdout. */
function expectOneLineError(
  result: { code: number | null; stdout: string; stderr: string },
  code: number,
  pattern: RegExp,
) {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^skills-kernel: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe("CLI basics", () => {
  it("prints its version and help", async () => {
    const version = await runCli(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("skills-kernel list");
    expect(help.stdout).toContain("--skills-dir DIR");
  });

  // The rest of the usage mistakes are test/cli/main.test.ts's, in process.
  it.each([
    [
      ["search", "x", "--format", "json"],
      /^skills-kernel: search takes no --format option \(list, audit, doctor, usage take it\); see skills-kernel search --help$/m,
    ],
  ])("refuses bad usage %j with exit 2", async (args, pattern) => {
    expectOneLineError(await runCli(args, { cwd: work }), 2, pattern);
  });
});

// Config mistakes are test/cli/main.test.ts's, in process.
describe("search, read, validate, install: the tools' own code paths", () => {
  const EXAMPLES = join(REPO_ROOT, "examples/skills");

  it("search prints ranked matches, or JSON", async () => {
    const human = await runCli(["search", "write a commit message for my staged changes", "--skills-dir", EXAMPLES], {
      cwd: work,
    });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /^1\. commit-message-writer {2}\(skills, score \d+, (exact|strong|partial|weak)\)\n {3}Writes clear/,
    );
    const json = await runCli(["search", "changelog", "--limit", "1", "--json", "--skills-dir", EXAMPLES], {
      cwd: work,
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ query: "changelog", results: [{ name: "changelog-curator" }] });
    expectOneLineError(
      await runCli(["search", "x", "--limit", "99"], { cwd: work }),
      2,
      /--limit must be a whole number from 1 to 50/,
    );
    expectOneLineError(
      await runCli(["search", "   ", "--skills-dir", EXAMPLES], { cwd: work }),
      1,
      /search_skills: .*query/i,
    );
  });

  it("read prints the SKILL.md and the files to fetch", async () => {
    const result = await runCli(["read", "commit-message-writer", "--skills-dir", EXAMPLES], { cwd: work });
    expect(result.code).toBe(0);
    const json = await runCli(["read", "commit-message-writer", "--json", "--skills-dir", EXAMPLES], { cwd: work });
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: "commit-message-writer",
      files: ["references/conventional-commits.md"],
    });
    expect(result.stdout).toMatch(/^---\nname: commit-message-writer\n/);
    expect(result.stdout).toContain("Files:\n  references/conventional-commits.md");
    expectOneLineError(
      await runCli(["read", "commit-mesage-writer", "--skills-dir", EXAMPLES], { cwd: work }),
      1,
      /no skill named "commit-mesage-writer"; did you mean: commit-message-writer/,
    );
  });

  it("validate exits 0 on good skills and 1 on a bad one", async () => {
    expect(await runCli(["validate", EXAMPLES], { cwd: work })).toMatchObject({ code: 0 });
    const bad = join(work, "bad-skill");
    await skill(work, "bad-skill", "Bad_Name", "x");
    const result = await runCli(["validate", bad, "--json"], { cwd: work });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, checked: 1, invalid: 1 });
  });

  it("install copies a served skill, refuses to overwrite, and replaces with --force", async () => {
    const target = join(work, "installed");
    const args = ["install", "changelog-curator", "--to", target, "--skills-dir", EXAMPLES];
    const first = await runCli(args, { cwd: work });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Installed "changelog-curator"');
    expectOneLineError(await runCli(args, { cwd: work }), 1, /already exists; ask to overwrite it/);
    expect(await runCli([...args, "--force"], { cwd: work })).toMatchObject({ code: 0 });
    const dry = await runCli([...args, "--force", "--dry-run", "--json"], { cwd: work });
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, name: "changelog-curator" });
  });
});

describe("list", () => {
  it("serves the usual folders by default, a project skill winning over a user skill", async () => {
    const project = join(work, "project");
    const home = join(work, "home");
    await skill(join(project, ".claude/skills"), "shared", "shared", "Project copy.");
    await skill(join(project, ".agents/skills"), "agents-only", "agents-only", "From .agents.");
    await skill(join(home, ".claude/skills"), "shared", "shared", "User copy.");
    await skill(join(home, ".agents/skills"), "personal", "personal", "User only.");
    await writeFile(join(project, "package.json"), "{}");
    const result = await runCli(["list", "--format", "json"], { cwd: project, env: { HOME: home, USERPROFILE: home } });
    expect(result.code).toBe(0);
    const { skills } = JSON.parse(result.stdout) as { skills: { id: string; source: string; description: string }[] };
    expect(skills.map((s) => [s.id, s.source, s.description])).toEqual([
      ["agents-only", "project", "From .agents."],
      ["personal", "user", "User only."],
      ["shared", "project", "Project copy."],
      ["user:shared", "user", "User copy."],
    ]);
  });

  it("lists a hostile root: good skills served, each bad one reported once, at warn", async () => {
    const root = join(work, "hostile");
    await mkdir(root);
    const { goodSkills, badPaths } = await createHostileRoot(root);
    const started = performance.now();
    const result = await runCli(["list", "--skills-dir", root, "--log-level", "info"], {
      cwd: work,
      timeoutMs: 30_000,
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(`hostile root listed in ${seconds} s`);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n").sort()).toEqual([...goodSkills].sort());
    for (const bad of badPaths) expect(result.stderr).toContain(bad);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // The default level (warn) reports them too; --log-level error says nothing of skipped skills.
    const warned = await runCli(["list", "--skills-dir", root], { cwd: work, timeoutMs: 30_000 });
    expect(warned.stdout).toBe(result.stdout);
    for (const bad of badPaths) expect(warned.stderr).toContain(bad);
    const quiet = await runCli(["list", "--skills-dir", root, "--log-level", "error"], {
      cwd: work,
      timeoutMs: 30_000,
    });
    expect(quiet.stdout).toBe(result.stdout);
    expect(quiet.stderr).toBe("");
  }, 120_000);
});

describe("serving", () => {
  // script(1) gives the server a real terminal, as when a person starts it by hand.
  it.skipIf(!HAS_SCRIPT)(needsScript("tells a person in a terminal what it serves and how to connect"), async () => {
    const root = join(work, "banner-root");
    await skill(root, "alpha", "alpha", "First skill.");
    const [command, ...prefix] = RUNTIMES.node;
    const line = [command, ...prefix, "--skills-dir", root].map((w) => `'${w}'`).join(" ");
    const child = spawn("script", ["-qec", line, "/dev/null"], { cwd: work, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (output += c));
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no banner; got: ${output}`)), 15_000);
      const check = () => (output.includes("Ctrl-C") ? (clearTimeout(deadline), resolve()) : setTimeout(check, 20));
      check();
    });
    child.kill("SIGTERM");
    expect(output).toContain("serving 1 skill over stdio");
    expect(output).toContain(`sources: banner-root (${root})`);
    expect(output).toContain(`claude mcp add skills -- ${command} ${prefix.join(" ")} --skills-dir ${root}`);
    expect(output).toContain('"mcpServers": {"skills":{"command":');
  });

  it("exits 0 on its own when the client closes stdin, writing nothing but JSON-RPC to stdout", async () => {
    for (const runtime of Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[]) {
      const result = await runCli(["--skills-dir", join(work)], { cwd: work, runtime, input: "" });
      expect(result, runtime).toMatchObject({ code: 0, stdout: "" });
    }
  });

  it("stops cleanly on SIGTERM and SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const [command, ...prefix] = RUNTIMES.node;
      const child = spawn(command, [...prefix, "--skills-dir", work], { cwd: work, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (c) => (stderr += c));
      await new Promise<void>((resolve) => {
        const check = () => (stderr.includes("serving") ? resolve() : setTimeout(check, 20));
        check();
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      child.kill(signal);
      expect(await exited, signal).toBe(0);
    }
  });
});
