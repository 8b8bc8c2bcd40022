import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * add, remove, update and restore never write or delete through a linked agent folder or a linked
 * folder above it (a cloned repository's `.claude/skills -> $HOME`), and never delete what is not
 * an installed skill: the same rule as install_skill's. Real repositories over file://, the bundle.
 */
let base: string;
let repo: TestRepository;
let env: Record<string, string>;
let home: string;

const run = (args: string[], cwd: string) => runCli(args, { cwd, env, timeoutMs: 60_000 });

/** A fresh project (a folder holding .git) with `layout` applied to it. */
async function project(name: string, layout: (dir: string) => Promise<void> = async () => {}): Promise<string> {
  const dir = join(base, name);
  await mkdir(join(dir, ".git"), { recursive: true });
  await layout(dir);
  return dir;
}

/** A folder elsewhere that a link leads to, watched for anything written into it. */
async function elsewhere(name: string): Promise<string> {
  const dir = join(base, "elsewhere", name);
  await mkdir(dir, { recursive: true });
  return dir;
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-linked-agents-"));
  repo = await createRepository({ "skills/deploy/SKILL.md": skill("deploy", "Deploy the service.") }, base);
  home = join(base, "home");
  await mkdir(join(home, "Documents"), { recursive: true });
  await writeFile(join(home, "Documents", "taxes.txt"), "mine\n");
  env = { HOME: home, XDG_CACHE_HOME: join(base, "cache"), XDG_STATE_HOME: join(base, "state"), CI: "1" };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("a linked agent folder, or a linked folder above it", () => {
  it.each([
    { layout: ".claude -> elsewhere", link: ".claude", args: ["--agent", "claude-code"] },
    { layout: ".claude/skills -> elsewhere", link: ".claude/skills", args: ["--agent", "claude-code"] },
    { layout: ".agents -> elsewhere", link: ".agents", args: ["--agent", "claude-code"] },
    {
      layout: ".windsurf/skills -> elsewhere, --copy",
      link: ".windsurf/skills",
      args: ["--agent", "windsurf", "--copy"],
    },
  ])("refuses add with $layout, writing nothing anywhere", async ({ layout, link, args }) => {
    const target = await elsewhere(layout.replace(/\W+/g, "-"));
    const dir = await project(`add-${layout.replace(/\W+/g, "-")}`, async (dir) => {
      await mkdir(join(dir, link, ".."), { recursive: true });
      await symlink(target, join(dir, link));
    });
    const result = await run(["add", `${repo.url}:skills@deploy`, ...args], dir);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `skills-kernel: refusing to change skills under ${join(dir, link)}: it is a symbolic link, and skills are never written or deleted through one (it could lead anywhere)`,
    );
    expect(await readdir(target)).toEqual([]);
    expect(existsSync(join(dir, "skills-lock.json"))).toBe(false);
    expect(existsSync(join(dir, ".agents", "skills", "deploy"))).toBe(false);
  });

  describe("with .claude/skills -> $HOME and a lock entry named Documents", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await project("home-link");
      const added = await run(["add", `${repo.url}:skills@deploy`, "--agent", "claude-code", "--copy"], dir);
      expect(added.code, added.stderr).toBe(0);
      const lock = JSON.parse(await readFile(join(dir, "skills-lock.json"), "utf8"));
      lock.skills.Documents = lock.skills.deploy;
      await writeFile(join(dir, "skills-lock.json"), JSON.stringify(lock, null, 2));
      await rm(join(dir, ".claude", "skills"), { recursive: true });
      await symlink(home, join(dir, ".claude", "skills"));
    });

    it("remove deletes nothing", async () => {
      const lockBefore = await readFile(join(dir, "skills-lock.json"), "utf8");
      const result = await run(["remove", "Documents"], dir);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toContain(
        `refusing to change skills under ${join(dir, ".claude", "skills")}: it is a symbolic link`,
      );
      expect(await readFile(join(home, "Documents", "taxes.txt"), "utf8")).toBe("mine\n");
      expect(await readFile(join(dir, "skills-lock.json"), "utf8")).toBe(lockBefore);
    });

    it("update --force and restore --force write nothing into $HOME", async () => {
      const before = (await readdir(home)).sort();
      for (const command of [
        ["update", "Documents", "--force"],
        ["restore", "--force"],
      ]) {
        const result = await run(command, dir);
        expect(result.code, command.join(" ")).toBe(1);
        expect(result.stderr).toContain("is a symbolic link");
        expect((await readdir(home)).sort()).toEqual(before);
        expect(await readdir(join(home, "Documents"))).toEqual(["taxes.txt"]);
      }
    });
  });

  it("still takes an agent folder that is a link to the shared .agents/skills", async () => {
    const dir = await project("shared-link", async (dir) => {
      await mkdir(join(dir, ".agents", "skills"), { recursive: true });
      await mkdir(join(dir, ".claude"));
      await symlink(join("..", ".agents", "skills"), join(dir, ".claude", "skills"));
    });
    const added = await run(["add", `${repo.url}:skills@deploy`, "--agent", "claude-code"], dir);
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(join(dir, ".agents", "skills", "deploy", "SKILL.md"))).toBe(true);
    expect((await run(["remove", "deploy"], dir)).code).toBe(0);
    expect(existsSync(join(dir, ".agents", "skills", "deploy"))).toBe(false);
  });
});

describe("a folder that is not an installed skill", () => {
  it("is neither removed nor replaced, even with --force", async () => {
    const dir = await project("not-a-skill");
    const added = await run(["add", `${repo.url}:skills@deploy`, "--agent", "claude-code", "--copy"], dir);
    expect(added.code, added.stderr).toBe(0);
    // The skill's folder replaced by a folder of the user's: no SKILL.md.
    await rm(join(dir, ".claude", "skills", "deploy"), { recursive: true });
    await mkdir(join(dir, ".claude", "skills", "deploy"));
    await writeFile(join(dir, ".claude", "skills", "deploy", "notes.txt"), "mine\n");

    const removed = await run(["remove", "deploy"], dir);
    expect(removed.code).toBe(1);
    expect(oneLine(removed.stderr)).toBe(
      `skills-kernel: ${join(dir, ".claude", "skills", "deploy")} holds no SKILL.md, so it is not an installed skill; it is left as it is; nothing was removed`,
    );
    const forced = await run(["add", `${repo.url}:skills@deploy`, "--agent", "claude-code", "--copy", "--force"], dir);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain("holds no SKILL.md, so it is not an installed skill");
    expect(await readdir(join(dir, ".claude", "skills", "deploy"))).toEqual(["notes.txt"]);
  });
});
