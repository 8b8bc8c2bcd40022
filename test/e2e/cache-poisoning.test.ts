import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * What the cache holds is read back as strictly as what the network sends: anyone who can write
 * to the cache (a shared Redis, the cache folder) must not steer a source. The remote sources'
 * on-disk cache, poisoned between two runs of the bundle.
 */
let base: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-poison-"));
  env = { XDG_CACHE_HOME: join(base, "cache"), HOME: base };
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Rewrites every disk-cache entry whose key starts with `prefix`; returns how many. */
async function poison(prefix: string, rewrite: (value: Record<string, unknown>) => unknown): Promise<number> {
  const dir = join(base, "cache", "skills-kernel", "documents");
  let count = 0;
  for (const file of await readdir(dir)) {
    if (!file.endsWith(".json")) continue;
    const entry = JSON.parse(await readFile(join(dir, file), "utf8")) as {
      key: string;
      value: Record<string, unknown>;
    };
    // Stored keys are `${source}\0${key}`: the source's own key follows the separator.
    if (!entry.key.slice(entry.key.indexOf("\0") + 1).startsWith(prefix)) continue;
    await writeFile(join(dir, file), JSON.stringify({ ...entry, value: rewrite(entry.value) }));
    count++;
  }
  return count;
}

describe("a poisoned cache", () => {
  let repo: TestRepository;

  beforeAll(async () => {
    repo = await createRepository({ "skills/real/SKILL.md": skill("real") }, base);
  });

  it("never points the git source at a local folder through a commit that is not one", async () => {
    const planted = join(base, "planted");
    await mkdir(join(planted, "skills", "planted"), { recursive: true });
    await writeFile(join(planted, "skills", "planted", "SKILL.md"), skill("planted"));
    expect(await runCli(["list", "--git", repo.url], { cwd: base, env })).toMatchObject({ code: 0, stdout: "real\n" });
    // Enough "../" to climb out of the checkouts' folder from anywhere, then the planted folder.
    const commit = `${"../".repeat(40)}${planted.slice(1)}`;
    expect(await poison("ref:", (value) => ({ ...value, commit }))).toBe(1);
    const again = await runCli(["list", "--git", repo.url], { cwd: base, env });
    expect(again.stdout).toBe("real\n");
  });

  describe("of catalog documents", () => {
    let server: FixtureServer;
    beforeAll(async () => {
      server = await startFixtureServer({
        "/skills-registry.json": {
          body: JSON.stringify({
            version: "1",
            skills: [{ name: "listed", description: "Listed.", path: "listed", files: ["SKILL.md"] }],
          }),
        },
        "/skills/listed/SKILL.md": { body: skill("listed") },
      });
    });
    afterAll(() => server.close());

    it("is fetched again when an entry is malformed, never failing the source", async () => {
      const catalog = `${server.url}/skills-registry.json`;
      expect(await runCli(["list", "--catalog", catalog], { cwd: base, env })).toMatchObject({
        code: 0,
        stdout: "listed\n",
      });
      const before = server.requests.length;
      // Fresh by its own account (fetchedAt), but its body is not base64 text.
      expect(await poison("doc:", (value) => ({ ...value, body: 42, fetchedAt: Date.now() }))).toBeGreaterThan(0);
      const again = await runCli(["list", "--catalog", catalog], { cwd: base, env });
      expect(again.stdout, again.stderr).toBe("listed\n");
      expect(server.requests.length).toBeGreaterThan(before);
    });
  });
});
