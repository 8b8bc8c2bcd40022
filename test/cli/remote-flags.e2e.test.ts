import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

describe("--git, --catalog and add through dist/cli.js", () => {
  let base: string;
  let repo: TestRepository;
  let server: FixtureServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-remote-cli-"));
    repo = await createRepository(
      {
        "skills/deploy/SKILL.md": skill("deploy", "Deploy the service."),
        "skills/deploy/scripts/run.sh": "#!/bin/sh\necho deploy\n",
        "skills/review/SKILL.md": skill("review", "Review a change."),
      },
      base,
    );
    server = await startFixtureServer({
      "/.well-known/skills/index.json": {
        body: JSON.stringify({
          skills: [{ name: "site-help", description: "Help for the site.", files: ["SKILL.md"] }],
        }),
      },
      "/.well-known/skills/site-help/SKILL.md": { body: skill("site-help", "Help for the site.") },
    });
    // A project with its own skills folder, which an explicit source flag leaves out.
    await mkdir(join(base, ".claude", "skills", "local-only"), { recursive: true });
    await writeFile(join(base, ".claude", "skills", "local-only", "SKILL.md"), skill("local-only"));
    env = { XDG_CACHE_HOME: join(base, "cache"), HOME: base };
  });

  afterAll(async () => {
    await server.close();
    await rm(base, { recursive: true, force: true });
  });

  it("--git serves exactly that repository's folder, repeatable beside --catalog", async () => {
    const result = await runCli(["list", "--git", `${repo.url}#main:skills`, "--catalog", server.url], {
      cwd: base,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n").filter(Boolean).sort()).toEqual(["deploy", "review", "site-help"]);
  });

  it("takes a repository URL given as --skills-dir as --git, instead of a missing folder", async () => {
    const result = await runCli(["list", "--skills-dir", repo.url], { cwd: base, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n").filter(Boolean).sort(), result.stdout + result.stderr).toEqual([
      "deploy",
      "review",
    ]);
  });

  it("says in one line what is wrong with a repository spec", async () => {
    const result = await runCli(["list", "--git", "o/r:../../etc"], { cwd: base, env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/plain relative path/);
  });

  it("add installs one skill of a repository through the installer's checks, and --json lists what it added", async () => {
    const project = join(base, "adding");
    await mkdir(join(project, ".git"), { recursive: true });
    const result = await runCli(
      ["add", `${repo.url}#main:skills`, "--skill", "deploy", "--agent", "claude-code", "--json"],
      { cwd: project, env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject([
      { folder: "deploy", agents: ["claude-code"], files: ["SKILL.md", "scripts/run.sh"] },
    ]);
    expect(await readFile(join(project, ".claude", "skills", "deploy", "scripts", "run.sh"), "utf8")).toBe(
      "#!/bin/sh\necho deploy\n",
    );
    expect(existsSync(join(project, ".claude", "skills", "review"))).toBe(false);
  });
});
