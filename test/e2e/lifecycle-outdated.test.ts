import { stat, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { createRepository, git, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * outdated and update per skill, through dist/cli.js: a commit that changes one skill of a
 * repository makes that skill alone outdated; the others stay current, untouched, with the new
 * commit recorded in the lock.
 */
describe("outdated and update compare each skill's own files", () => {
  let base: string;
  let repo: TestRepository;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let first: string;
  const run = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
  const lock = async () => JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-outdated-"));
    repo = await createRepository(
      {
        "skills/alpha/SKILL.md": skill("alpha", "The first skill."),
        "skills/beta/SKILL.md": skill("beta", "The second skill."),
      },
      base,
    );
    first = git(repo.work, "rev-parse", "HEAD").trim();
    project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
    const added = await run(["add", `${repo.url}:skills`, "--agent", "claude-code"]);
    expect(added.code, added.stderr).toBe(0);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("exits 0 with every skill current before anything moved", async () => {
    const outdated = await run(["outdated"]);
    expect(outdated.code, outdated.stderr).toBe(0);
    expect(outdated.stdout).toBe("alpha  current\nbeta  current\n");
  });

  it("lists only the changed skill as outdated (exit 1), and records the new commit for the other", async () => {
    const second = await repo.commit({ "skills/beta/SKILL.md": skill("beta", "The second skill, revised.") });
    const outdated = await run(["outdated", "--json"]);
    expect(outdated.code, outdated.stderr).toBe(1);
    expect(JSON.parse(outdated.stdout)).toEqual([
      { name: "alpha", status: "current", current: first, latest: second },
      { name: "beta", status: "outdated", current: first, latest: second },
    ]);
    const entries = (await lock()).skills;
    expect(entries.alpha.commit).toBe(second);
    expect(entries.beta.commit).toBe(first);
    const text = await run(["outdated"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe(`alpha  current\nbeta  outdated  ${first.slice(0, 12)} -> ${second.slice(0, 12)}\n`);
  });

  it("update rewrites the changed skill alone, and outdated exits 0 after", async () => {
    const alphaBefore = await stat(join(project, ".agents", "skills", "alpha", "SKILL.md"));
    const updated = await run(["update"]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toMatch(/^alpha is up to date\nupdated beta: \w{12} -> \w{12}\n$/);
    const alphaAfter = await stat(join(project, ".agents", "skills", "alpha", "SKILL.md"));
    expect(alphaAfter.ino).toBe(alphaBefore.ino);
    expect(alphaAfter.mtimeMs).toBe(alphaBefore.mtimeMs);
    expect(await readFile(join(project, ".claude", "skills", "beta", "SKILL.md"), "utf8")).toContain("revised");
    expect((await run(["outdated"])).code).toBe(0);
  });
});
