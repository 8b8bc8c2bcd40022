import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createRepository, git, skill } from "../plugins/sources/git/repos.js";

/**
 * What `list` says when it has nothing to show, through the bundle: a source that failed is a
 * failure (exit 1, naming what was looked for), an empty folder is the tool's "No skills found"
 * text, and two catalogs on one host, or two branches of one repository, are both served.
 */
let work: string;
let env: NodeJS.ProcessEnv;
let server: FixtureServer;

const catalog = (name: string) =>
  JSON.stringify({
    version: "1",
    skills: [{ name, description: `The ${name} skill.`, path: name, files: ["SKILL.md"] }],
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-list-outcomes-"));
  // A package.json stops the config search here; HOME and the cache folder are the test's own.
  await writeFile(join(work, "package.json"), "{}");
  env = { HOME: work, XDG_CACHE_HOME: join(work, "cache") };
  server = await startFixtureServer({
    "/a/catalog.json": { body: catalog("alpha") },
    "/a/skills/alpha/SKILL.md": { body: skill("alpha") },
    "/b/catalog.json": { body: catalog("beta") },
    "/b/skills/beta/SKILL.md": { body: skill("beta") },
  });
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

describe("list with nothing to show", () => {
  it("exits 1 when the only git source cannot be read, and says which repository it tried", async () => {
    const result = await runCli(["list", "--git", "file:///nonexistent.git"], { cwd: work, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "skills-kernel: no skill source could be loaded, so nothing is listed; looked in file-nonexistent (file:///nonexistent.git)",
    );
  });

  it("exits 1 when the only catalog is not there, and names its URL", async () => {
    const url = `${server.url}/never.json`;
    const result = await runCli(["list", "--catalog", url, "--format", "json"], { cwd: work, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`looked in 127.0.0.1-${new URL(server.url).port} (${url})`);
  });

  it("still lists what loaded when only some sources failed, with exit 0", async () => {
    const result = await runCli(
      ["list", "--catalog", `${server.url}/never.json`, "--catalog", `${server.url}/a/catalog.json`],
      { cwd: work, env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("alpha\n");
    expect(result.stderr).toMatch(/failed to load/);
  });

  it("prints the tool's 'No skills found in' text for an empty folder, with exit 0", async () => {
    const result = await runCli(["list"], { cwd: work, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `No skills found in project (${join(work, ".claude/skills")}, ${join(work, ".agents/skills")}); user (${join(work, ".claude/skills")}, ${join(work, ".agents/skills")}).\n`,
    );
  });
});

describe("sources named after one host or one repository", () => {
  it("serves two catalogs of one host from the command line, the second suffixed -2", async () => {
    const host = `127.0.0.1-${new URL(server.url).port}`;
    const result = await runCli(
      [
        "list",
        "--catalog",
        `${server.url}/a/catalog.json`,
        "--catalog",
        `${server.url}/b/catalog.json`,
        "--format",
        "json",
      ],
      { cwd: work, env },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { skills: { name: string; source: string }[] };
    expect(listed.skills.map((s) => [s.name, s.source])).toEqual([
      ["alpha", host],
      ["beta", `${host}-2`],
    ]);
  });

  it("serves two branches of one repository, the second suffixed -2", async () => {
    const repo = await createRepository({ "main-skill/SKILL.md": skill("main-skill") });
    git(repo.work, "checkout", "-q", "-b", "dev");
    await writeFile(join(repo.work, "README.md"), "dev\n");
    git(repo.work, "add", "-A");
    git(repo.work, "commit", "-q", "-m", "dev");
    git(repo.work, "mv", "main-skill", "dev-skill");
    await writeFile(join(repo.work, "dev-skill", "SKILL.md"), skill("dev-skill"));
    git(repo.work, "commit", "-q", "-am", "rename");
    git(repo.work, "push", "-q", repo.bare, "HEAD:refs/heads/dev");
    const result = await runCli(["list", "--git", `${repo.url}#main`, "--git", `${repo.url}#dev`, "--format", "json"], {
      cwd: work,
      env,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { skills: { name: string; source: string }[] };
    const sources = listed.skills.map((s) => [s.name, s.source]);
    expect(sources).toHaveLength(2);
    expect(sources[0]![0]).toBe("dev-skill");
    expect(sources[1]![0]).toBe("main-skill");
    expect(sources[0]![1]).toBe(`${sources[1]![1]}-2`);
  });
});
