import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, runCli } from "../helpers/cli.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * A branch pushed to after it was served: without --refresh the commit seen within the ref TTL
 * (10 minutes) is served again, in a new process too (the disk cache remembers it); --refresh and
 * list_skills' `refresh` ask the remote now. Through dist/cli.js, against a real local repository.
 */
let work: string;
let env: Record<string, string>;
let repo: TestRepository;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-refresh-"));
  await writeFile(join(work, "package.json"), "{}");
  env = { HOME: work, XDG_CACHE_HOME: join(work, "cache") };
  repo = await createRepository({ "first/SKILL.md": skill("first") }, work);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const list = (...more: string[]) => runCli(["list", "--git", repo.url, ...more], { cwd: work, env });

describe("--refresh", () => {
  it("serves a push at once with --refresh, and the remembered commit without it", async () => {
    expect((await list()).stdout).toBe("first\n");
    await repo.commit({ "second/SKILL.md": skill("second") });
    const cached = await list();
    expect(cached.code).toBe(0);
    expect(cached.stdout).toBe("first\n");
    const refreshed = await list("--refresh");
    expect(refreshed.stderr).toBe("");
    expect(refreshed.stdout).toBe("first\nsecond\n");
  });

  it("list_skills with refresh: true serves a push to a running server", async () => {
    const server = await connectCli(["--git", repo.url], { cwd: work, env });
    try {
      const names = async (args: Record<string, unknown>) =>
        (
          (await server.client.callTool({ name: "list_skills", arguments: args })).structuredContent as {
            skills: { name: string }[];
          }
        ).skills.map((s) => s.name);
      const before = await names({});
      await repo.commit({ [`pushed-${before.length}/SKILL.md`]: skill(`pushed-${before.length}`) });
      expect(await names({})).toEqual(before);
      expect(await names({ refresh: true })).toEqual([...before, `pushed-${before.length}`].sort());
    } finally {
      await server.client.close();
    }
  });

  it("says how old the commit served is when the remote cannot be asked", async () => {
    expect((await list()).code).toBe(0);
    const away = `${repo.bare}.away`;
    await rename(repo.bare, away);
    try {
      const stale = await list("--refresh");
      expect(stale.code).toBe(0);
      expect(stale.stdout).not.toBe("");
      expect(stale.stderr).toMatch(
        /could not be reloaded \(serving commit [0-9a-f]{12}, checked \d+ (?:second|minute)s? ago: the remote could not be asked/,
      );
      const full = await list("--refresh", "--format", "full");
      expect(full.stdout).toMatch(
        /Note: source ".+" could not be reloaded \(serving commit [0-9a-f]{12}, checked \d+ (?:second|minute)s? ago/,
      );
    } finally {
      await rename(away, repo.bare);
    }
  });
});
