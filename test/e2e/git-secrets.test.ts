import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, runCli } from "../helpers/cli.js";
import { startGitHttpServer, type GitHttpServer } from "../helpers/git-http-server.js";
import { createRepository, git, skill, type TestRepository } from "../plugins/sources/git/repos.js";
import { filesHolding } from "../helpers/grep.js";

/**
 * A checkout's .git holds the remote URL (and, before this, the token in it): nothing of it may be
 * served or installed, whatever links in the repository point at, and a token given in a URL
 * reaches neither the checkout nor a log. Real repositories, served by file:// and by git's own
 * smart-HTTP backend on loopback behind Basic auth; the shipped bundle.
 */
const TOKEN = "tok3n-SHOULD-never-leak";

let base: string;
let repo: TestRepository;
let env: Record<string, string>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-git-secrets-"));
  // A skill at the repository's root: its folder is the checkout, .git included.
  repo = await createRepository({ "SKILL.md": skill("rooted", "A skill at the root."), "ok.md": "# fine\n" }, base);
  await symlink(".git/config", join(repo.work, "notes.txt"));
  await symlink(".git/FETCH_HEAD", join(repo.work, "fetched.txt"));
  await symlink(".git", join(repo.work, "gitdir"));
  await repo.commit({}, "links into .git");
  env = { XDG_CACHE_HOME: join(base, "cache"), HOME: base };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("links into a checkout's .git", () => {
  it("are neither listed nor served", async () => {
    const { client, transport } = await connectCli(["--git", repo.url], { cwd: base, env });
    try {
      const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "rooted" } });
      const { files } = read.structuredContent as { files: string[] };
      expect(files).toContain("ok.md");
      expect(files).not.toContain("notes.txt");
      expect(files).not.toContain("fetched.txt");
      const fetched = await client.callTool({
        name: "fetch_skill_files",
        arguments: {
          skill_name: "rooted",
          file_paths: ["notes.txt", "fetched.txt", "gitdir/config", ".git/config", "ok.md"],
        },
      });
      const text = JSON.stringify(fetched);
      expect(text).not.toContain("[remote");
      expect(text).not.toContain("repositoryformatversion");
      expect(text).toContain("# fine");
    } finally {
      await transport.close();
    }
  });

  it("are not installed by add", async () => {
    const project = join(base, "installed");
    await mkdir(project, { recursive: true });
    const result = await runCli(["add", repo.url, "--agent", "claude-code", "--copy"], { cwd: project, env });
    expect(result.code, result.stderr).toBe(0);
    expect((await readdir(join(project, ".claude", "skills", "rooted"))).sort()).toEqual(["SKILL.md", "ok.md"]);
  });
});

describe("a token in a repository URL", () => {
  let server: GitHttpServer;
  let privateRepo: TestRepository;

  beforeAll(async () => {
    privateRepo = await createRepository(
      { "skills/secret-deploy/SKILL.md": skill("secret-deploy", "Deploy from a private repository.") },
      base,
    );
    git(privateRepo.bare, "config", "http.receivepack", "false");
    server = await startGitHttpServer(join(privateRepo.bare, ".."), { username: "deploy", password: TOKEN });
  });
  afterAll(async () => {
    await server.close();
  });

  it("authenticates the clone, and is written nowhere: not the checkout, not a log, not a message", async () => {
    const url = `${server.origin.replace("//", `//deploy:${TOKEN}@`)}/origin.git`;
    const config = join(base, "private.config.json");
    await writeFile(
      config,
      JSON.stringify({ plugins: [["git", { repositories: [url], protocols: ["http"] }], "list-skills"] }),
    );
    const result = await runCli(["list", "--config", config, "--log-level", "debug"], { cwd: base, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("secret-deploy\n");
    expect(server.authorizations.some((header) => header !== "")).toBe(true);
    expect(result.stderr).not.toContain(TOKEN);

    // Every file the cache folder holds, checkouts' .git/config included.
    expect(existsSync(join(base, "cache"))).toBe(true);
    expect(filesHolding(join(base, "cache"), TOKEN)).toBe("");
  });

  it("is redacted in messages about the repository", async () => {
    const url = `${server.origin.replace("//", `//deploy:${TOKEN}@`)}/origin.git#no-such-branch`;
    const config = join(base, "private-bad.config.json");
    await writeFile(
      config,
      JSON.stringify({ plugins: [["git", { repositories: [url], protocols: ["http"] }], "list-skills"] }),
    );
    const result = await runCli(["list", "--config", config, "--log-level", "debug"], { cwd: base, env });
    expect(result.stderr).toContain("no-such-branch");
    expect(result.stderr).not.toContain(TOKEN);
    const nowhere = join(base, "nowhere");
    await mkdir(nowhere, { recursive: true });
    const added = await runCli(["add", `http://deploy:${TOKEN}@127.0.0.1:9/x.git`, "--agent", "claude-code"], {
      cwd: nowhere,
      env,
    });
    expect(added.code).toBe(1);
    expect(added.stderr).not.toContain(TOKEN);
    expect(existsSync(join(nowhere, ".claude"))).toBe(false);
  });

  it("without it, the private repository is not served", async () => {
    const config = join(base, "anonymous.config.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [["git", { repositories: [`${server.origin}/origin.git`], protocols: ["http"] }], "list-skills"],
      }),
    );
    // A cache of its own: the checkout made with the token is (rightly) served from the cache.
    const result = await runCli(["list", "--config", config], {
      cwd: base,
      env: { ...env, XDG_CACHE_HOME: join(base, "cache-anonymous") },
    });
    expect(result.stdout.trim()).toBe("");
    expect(result.stderr).toMatch(/401|Authentication|could not read Username/i);
  });
});
