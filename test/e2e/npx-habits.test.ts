import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { skill } from "../plugins/sources/git/repos.js";

/**
 * The habits a user of npx skills brings (skills 1.7.4's spellings), through the bundle, and what
 * the shared `.agents/skills` means when a skill is removed for one agent that reads it.
 */
let base: string;
let project: string;
let env: Record<string, string>;

const run = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
const lock = async () => JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-habits-"));
  project = join(base, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  for (const name of ["pdf", "docx"]) {
    await mkdir(join(base, "team", name), { recursive: true });
    await writeFile(join(base, "team", name, "SKILL.md"), skill(name, `Work with ${name} files.`));
  }
  env = { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache"), XDG_STATE_HOME: join(base, "state"), CI: "1" };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("npx skills' spellings", () => {
  it("add -l lists the source's skills and installs nothing", async () => {
    const listed = await run(["add", "../team", "-l"]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toBe("docx  Work with docx files.\npdf  Work with pdf files.\n");
    expect(existsSync(join(project, "skills-lock.json"))).toBe(false);
  });

  it("add -y -a -a -s installs for those agents without asking", async () => {
    const added = await run(["add", "../team", "-y", "-a", "claude-code", "-a", "cursor", "-s", "pdf", "-s", "docx"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain("added pdf for claude-code, cursor (link, 1 file)");
    expect(Object.keys((await lock()).skills)).toEqual(["docx", "pdf"]);
  });

  it("ls lists the installed skills, each folder with the agents that read it; -a those one agent loads", async () => {
    const listed = await run(["ls"]);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "docx  ok  claude-code, cursor  ../team",
      "pdf  ok  claude-code, cursor  ../team",
      "Each agent loads every skill in the folder it reads:",
    ]);
    expect(lines[3]).toMatch(/^ {2}\.agents\/skills {2}amp, .*\bcodex, cursor, .*\bgemini-cli\b/);
    expect(lines[4]).toBe("  .claude/skills  claude-code");
    // Codex was never named, but reads the shared folder the stored copies are in.
    const codex = await run(["ls", "-a", "codex", "--json"]);
    expect((JSON.parse(codex.stdout) as { name: string }[]).map((row) => row.name)).toEqual(["docx", "pdf"]);
    const row = (JSON.parse(codex.stdout) as Record<string, unknown>[])[0]!;
    expect(row).toMatchObject({ sourceType: "local", installedBy: "skills-kernel", missingFor: [] });
    expect(row.folders).toEqual([
      { folder: ".agents/skills", readBy: expect.arrayContaining(["codex", "cursor", "gemini-cli"]) },
      { folder: ".claude/skills", readBy: ["claude-code"] },
    ]);
  });

  it("check is outdated, and changes nothing", async () => {
    const before = await readFile(join(project, "skills-lock.json"), "utf8");
    const checked = await run(["check"]);
    expect(checked).toMatchObject({ code: 0, stdout: "docx  current\npdf  current\n" });
    expect(await readFile(join(project, "skills-lock.json"), "utf8")).toBe(before);
  });

  it("find searches the skills served (here, the project's installed ones)", async () => {
    const found = await run(["find", "docx files"]);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain("docx");
  });

  it("rm from an agent reading .agents/skills says it still loads the skill, and how to remove it for all", async () => {
    const removed = await run(["rm", "pdf", "-a", "cursor", "-y"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe("removed pdf for cursor; still installed for claude-code\n");
    expect(removed.stderr).toMatch(
      /^skills-kernel: warning: cursor still loads pdf: \.agents\/skills keeps it for claude-code, and every agent reading that folder loads it \(amp, .*cursor.*\); to remove it for all: skills-kernel remove pdf\n$/,
    );
    expect(existsSync(join(project, ".agents", "skills", "pdf", "SKILL.md"))).toBe(true);
    // Removing it for the agent whose own folder it is says nothing more: nobody else reads that one.
    const fromClaude = await run(["rm", "docx", "-a", "claude-code"]);
    expect(fromClaude).toMatchObject({ code: 0, stderr: "" });
    const all = await run(["rm", "-s", "pdf"]);
    expect(all).toMatchObject({ code: 0, stdout: "removed pdf\n", stderr: "" });
    expect(existsSync(join(project, ".agents", "skills", "pdf"))).toBe(false);
  });

  it("-g is --global", async () => {
    const added = await run(["add", "../team", "-g", "-y", "-a", "claude-code", "-s", "pdf"]);
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(join(base, "home", ".claude", "skills", "pdf", "SKILL.md"))).toBe(true);
    const listed = await run(["ls", "-g"]);
    expect(listed.stdout).toMatch(/^pdf {2}ok {2}claude-code /);
    expect(listed.stdout).toContain("  ~/.claude/skills  claude-code\n");
  });
});
