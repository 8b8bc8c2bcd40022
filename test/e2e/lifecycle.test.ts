import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, connectCli, runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createRepository, git, skill, type TestRepository } from "../plugins/sources/git/repos.js";
import { HAS_SCRIPT, needsScript } from "../helpers/tools.js";

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** npx skills' folder digest, written from its description: each path then its bytes, paths in localeCompare order. */
function npxHash(files: Record<string, string>): string {
  const hash = createHash("sha256");
  for (const path of Object.keys(files).sort((a, b) => a.localeCompare(b))) hash.update(path).update(files[path]!);
  return hash.digest("hex");
}

describe("the installed-skill lifecycle through dist/cli.js", () => {
  let base: string;
  let repo: TestRepository;
  let server: FixtureServer;
  let env: NodeJS.ProcessEnv;
  let project: string;
  let first: string;
  const run = (args: string[], cwd = project, more: NodeJS.ProcessEnv = {}) =>
    runCli(args, { cwd, env: { ...env, ...more }, timeoutMs: 60_000 });
  const lock = async (dir = project) => JSON.parse(await readFile(join(dir, "skills-lock.json"), "utf8"));

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-lifecycle-"));
    repo = await createRepository(
      {
        "skills/deploy/SKILL.md": skill("deploy", "Deploy the service."),
        "skills/deploy/scripts/run.sh": "echo v1\n",
        "skills/review/SKILL.md": skill("review", "Review a change."),
      },
      base,
    );
    first = git(repo.work, "rev-parse", "HEAD").trim();
    git(repo.work, "tag", "v1");
    git(repo.work, "push", "-q", repo.bare, "v1");
    server = await startFixtureServer({});
    project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
  });

  afterAll(async () => {
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  it("adds every skill of a repository for three agents: one stored copy, links, one line per skill", async () => {
    const result = await run([
      "add",
      `${repo.url}#main:skills`,
      "--agent",
      "claude-code",
      "--agent",
      "windsurf",
      "--agent",
      "codex",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim().split("\n")).toEqual([
      `added deploy at ${first.slice(0, 12)} (tracking main) for claude-code, windsurf, codex (link, 2 files)`,
      `added review at ${first.slice(0, 12)} (tracking main) for claude-code, windsurf, codex (link, 1 file)`,
    ]);
    expect(await readFile(join(project, ".agents", "skills", "deploy", "scripts", "run.sh"), "utf8")).toBe("echo v1\n");
    for (const agent of [".claude", ".windsurf"]) {
      const link = join(project, agent, "skills", "deploy");
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link)).toBe(join("..", "..", ".agents", "skills", "deploy"));
    }
  });

  it("records the source, ref, commit, path, agents, mode and every file's digest, in a stable order", async () => {
    const text = await readFile(join(project, "skills-lock.json"), "utf8");
    const deploy = {
      source: `${repo.url}#main:skills`,
      sourceType: "git",
      sourceUrl: repo.url,
      ref: "main",
      pinned: false,
      commit: first,
      skillPath: "skills/deploy/SKILL.md",
      agents: ["claude-code", "codex", "windsurf"],
      mode: "link",
      computedHash: npxHash({ "SKILL.md": skill("deploy", "Deploy the service."), "scripts/run.sh": "echo v1\n" }),
      files: { "SKILL.md": sha(skill("deploy", "Deploy the service.")), "scripts/run.sh": sha("echo v1\n") },
    };
    expect(JSON.parse(text).skills.deploy).toEqual(deploy);
    expect(Object.keys(JSON.parse(text).skills.deploy)).toEqual(Object.keys(deploy));
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "skills": {\n    "deploy": {\n      "source": ');
  });

  it("pins a tag with SOURCE@skill on a file:// URL; outdated shows it pinned and the branch outdated", async () => {
    const added = await run(["add", `${repo.url}#v1:skills@review`, "--agent", "claude-code"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /^added review at \w{12} \(pinned to v1\) for claude-code, codex, windsurf \(link, 1 file\)\n$/,
    );
    await repo.commit({
      "skills/deploy/scripts/run.sh": "echo v2\n",
      "skills/review/SKILL.md": skill("review", "Review it twice."),
    });
    const outdated = await run(["outdated", "--json"]);
    expect(outdated.code, outdated.stderr).toBe(1);
    const rows = JSON.parse(outdated.stdout);
    expect(rows.find((row: { name: string }) => row.name === "review")).toMatchObject({ status: "pinned" });
    expect(rows.find((row: { name: string }) => row.name === "deploy")).toMatchObject({
      status: "outdated",
      current: first,
    });
  });

  it("update keeps a local edit and names the file (exit 1); --force replaces it", async () => {
    await writeFile(join(project, ".claude", "skills", "deploy", "scripts", "run.sh"), "echo mine\n");
    const installed = JSON.parse((await run(["installed", "--json"])).stdout);
    expect(installed.find((row: { name: string }) => row.name === "deploy")).toMatchObject({
      state: "modified",
      differing: ["scripts/run.sh"],
    });
    const kept = await run(["update"]);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain("deploy has local edits (scripts/run.sh); left as it is (--force replaces them)");
    expect(kept.stdout).toContain("review: pinned (pinned to v1)");
    expect(await readFile(join(project, ".agents", "skills", "deploy", "scripts", "run.sh"), "utf8")).toBe(
      "echo mine\n",
    );
    const dry = await run(["update", "deploy", "--force", "--dry-run"]);
    expect(dry.stdout).toMatch(/^would update deploy/);
    expect(await readFile(join(project, ".agents", "skills", "deploy", "scripts", "run.sh"), "utf8")).toBe(
      "echo mine\n",
    );
    const forced = await run(["update", "deploy", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(join(project, ".windsurf", "skills", "deploy", "scripts", "run.sh"), "utf8")).toBe(
      "echo v2\n",
    );
    expect((await lock()).skills.deploy.files["scripts/run.sh"]).toBe(sha("echo v2\n"));
  });

  it("removes a skill from one agent only, and the lock follows", async () => {
    const result = await run(["remove", "deploy", "--agent", "windsurf"]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(project, ".windsurf", "skills", "deploy"))).toBe(false);
    expect(existsSync(join(project, ".claude", "skills", "deploy", "SKILL.md"))).toBe(true);
    expect((await lock()).skills.deploy.agents).toEqual(["claude-code", "codex"]);
  });

  it("restores exactly the locked commits after every agent folder is gone, the tag deleted and main moved", async () => {
    git(repo.bare, "tag", "-d", "v1");
    await repo.commit({ "skills/review/SKILL.md": skill("review", "Moved on again.") });
    for (const folder of [".agents", ".claude", ".windsurf"])
      await rm(join(project, folder), { recursive: true, force: true });
    const before = await readFile(join(project, "skills-lock.json"), "utf8");
    const result = await run(["restore", "--frozen"], project, { XDG_CACHE_HOME: join(base, "fresh-cache") });
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(project, ".claude", "skills", "review", "SKILL.md"), "utf8")).toBe(
      skill("review", "Review a change."),
    );
    expect(await readFile(join(project, ".claude", "skills", "deploy", "scripts", "run.sh"), "utf8")).toBe("echo v2\n");
    expect(existsSync(join(project, ".windsurf", "skills", "deploy"))).toBe(false);
    expect(await readFile(join(project, "skills-lock.json"), "utf8")).toBe(before);
    const states = JSON.parse((await run(["installed", "--json"])).stdout).map((row: { state: string }) => row.state);
    expect(states).toEqual(["ok", "ok"]);
  });

  it("answers list_installed_skills and check_outdated_skills over MCP", async () => {
    const { client, transport } = await connectCli([], { cwd: project });
    try {
      const installed = await client.callTool({ name: "list_installed_skills", arguments: {} });
      expect(installed.isError).toBeFalsy();
      expect((installed.structuredContent as { skills: unknown[] }).skills).toMatchObject([
        { name: "deploy", state: "ok", agents: ["claude-code", "codex"] },
        { name: "review", state: "ok", pinned: true, ref: "v1" },
      ]);
      const outdated = await client.callTool({ name: "check_outdated_skills", arguments: {} });
      // main moved on with review alone changed: deploy's own files are current.
      expect((outdated.structuredContent as { skills: unknown[] }).skills).toMatchObject([
        { name: "deploy", status: "current" },
        { name: "review", status: "pinned" },
      ]);
    } finally {
      await transport.close();
    }
  });

  it("refuses to restore a skill whose digest was tampered with, writing nothing for it", async () => {
    const original = await lock();
    const folderDigest = structuredClone(original);
    folderDigest.skills.review.computedHash = "0".repeat(64);
    await writeFile(join(project, "skills-lock.json"), JSON.stringify(folderDigest));
    for (const folder of [".agents", ".claude", ".windsurf"])
      await rm(join(project, folder), { recursive: true, force: true });
    const byFolder = await run(["restore"]);
    expect(byFolder.code).toBe(1);
    expect(byFolder.stderr).toContain(
      `refusing to restore "review": its content does not match the lock's folder digest (computedHash); nothing was written`,
    );
    expect(existsSync(join(project, ".claude", "skills", "review"))).toBe(false);
    const tampered = structuredClone(original);
    tampered.skills.review.files["SKILL.md"] = sha("something else");
    await writeFile(join(project, "skills-lock.json"), JSON.stringify(tampered));
    for (const folder of [".agents", ".claude", ".windsurf"])
      await rm(join(project, folder), { recursive: true, force: true });
    const result = await run(["restore"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `refusing to restore "review": its content does not match the lock's digests (SKILL.md); nothing was written`,
    );
    expect(existsSync(join(project, ".agents", "skills", "review"))).toBe(false);
    expect(existsSync(join(project, ".claude", "skills", "review"))).toBe(false);
    expect(existsSync(join(project, ".claude", "skills", "deploy", "SKILL.md"))).toBe(true);
  });

  it("reports a corrupt or newer lock by name, and never resets it", async () => {
    const file = join(project, "skills-lock.json");
    await writeFile(file, '{"version": 1, "skills": ');
    const corrupt = await run(["installed"]);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr.trim()).toMatch(
      new RegExp(`^skills-kernel: ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not valid JSON`),
    );
    const add = await run(["add", `${repo.url}:skills`]);
    expect(add.code).toBe(1);
    expect(add.stderr.trim().split("\n")).toHaveLength(1);
    expect(await readFile(file, "utf8")).toBe('{"version": 1, "skills": ');
    await writeFile(file, '{"version": 2, "skills": {}}');
    const newer = await run(["restore"]);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain(
      `${file} has format version 2, newer than this skills-kernel reads (1); upgrade skills-kernel`,
    );
  });

  it("adds racing on one project all land in a valid lock", async () => {
    const names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"];
    const many = await createRepository(
      Object.fromEntries(names.map((name) => [`${name}/SKILL.md`, skill(name)])),
      base,
    );
    const racing = join(base, "racing");
    await mkdir(join(racing, ".git"), { recursive: true });
    const results = await Promise.all(names.map((name) => run(["add", `${many.url}@${name}`], racing)));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(Object.keys((await lock(racing)).skills)).toEqual(names);
    expect(existsSync(join(racing, "skills-lock.json.lock"))).toBe(false);
  });

  it("says when a tracked branch was deleted, and installs into the user's folders and lock with --global", async () => {
    const branchy = await createRepository({ "skills/topic/SKILL.md": skill("topic") }, base);
    git(branchy.work, "push", "-q", branchy.bare, "HEAD:refs/heads/feature");
    const cwd = join(base, "global-cwd");
    await mkdir(cwd, { recursive: true });
    const added = await run(["add", `${branchy.url}#feature:skills`, "--global", "--agent", "windsurf"], cwd);
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(join(env.HOME!, ".codeium", "windsurf", "skills", "topic", "SKILL.md"))).toBe(true);
    expect(existsSync(join(env.XDG_STATE_HOME!, "skills-kernel", "skills-lock.json"))).toBe(true);
    expect(existsSync(join(cwd, "skills-lock.json"))).toBe(false);
    git(branchy.bare, "branch", "-D", "feature");
    const outdated = JSON.parse((await run(["outdated", "--global", "--json"], cwd)).stdout);
    expect(outdated).toMatchObject([
      { name: "topic", status: "unknown", note: expect.stringContaining('has no branch or tag named "feature"') },
    ]);
    const update = await run(["update", "--global"], cwd);
    expect(update.code).toBe(1);
    expect(update.stdout).toContain("topic: unknown");
    expect(JSON.parse((await run(["installed", "--global", "--json"], cwd)).stdout)).toMatchObject([
      { name: "topic", state: "ok" },
    ]);
  });

  it("never replaces a skill of the same name from another source without --force", async () => {
    const other = await createRepository({ "a1/SKILL.md": skill("a1", "Someone else's a1.") }, base);
    const racing = join(base, "racing");
    const before = await readFile(join(racing, "skills-lock.json"), "utf8");
    const refused = await run(["add", `${other.url}@a1`], racing);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^skills-kernel: a1 is installed from file://\\S+@a1; --force replaces it with ${other.url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}@a1\n$`,
      ),
    );
    expect(await readFile(join(racing, "skills-lock.json"), "utf8")).toBe(before);
    const forced = await run(["add", `${other.url}@a1`, "--force"], racing);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await lock(racing)).skills.a1.sourceUrl).toBe(other.url);
  });

  it("keeps the stored copy when an agent's folder is a link to .agents/skills", async () => {
    const linked = join(base, "linked");
    await mkdir(join(linked, ".git"), { recursive: true });
    await mkdir(join(linked, ".agents", "skills"), { recursive: true });
    await mkdir(join(linked, ".claude"));
    await symlink(join("..", ".agents", "skills"), join(linked, ".claude", "skills"));
    const added = await run(
      ["add", `${repo.url}:skills@deploy`, "--agent", "claude-code", "--agent", "windsurf"],
      linked,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(lstatSync(join(linked, ".agents", "skills", "deploy")).isDirectory()).toBe(true);
    expect(JSON.parse((await run(["installed", "--json"], linked)).stdout)).toMatchObject([
      { name: "deploy", state: "ok" },
    ]);
    expect((await run(["remove", "deploy", "--agent", "claude-code"], linked)).code).toBe(0);
    expect(existsSync(join(linked, ".windsurf", "skills", "deploy", "SKILL.md"))).toBe(true);
  });

  it("--copy gives each agent its own copy, each checked for edits", async () => {
    const copies = join(base, "copies");
    await mkdir(join(copies, ".git"), { recursive: true });
    const added = await run(
      ["add", `${repo.url}:skills@review`, "--copy", "--agent", "claude-code", "--agent", "windsurf"],
      copies,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain("for claude-code, windsurf (copy, 1 file)");
    for (const agent of [".claude", ".windsurf"])
      expect(lstatSync(join(copies, agent, "skills", "review")).isDirectory()).toBe(true);
    expect(existsSync(join(copies, ".agents", "skills", "review"))).toBe(false);
    await writeFile(join(copies, ".windsurf", "skills", "review", "notes.md"), "mine\n");
    expect(JSON.parse((await run(["installed", "--json"], copies)).stdout)).toMatchObject([
      { name: "review", state: "modified", mode: "copy", differing: ["notes.md"] },
    ]);
    const removed = await run(["remove", "review"], copies);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(copies, ".claude", "skills", "review"))).toBe(false);
    expect(existsSync(join(copies, ".windsurf", "skills", "review"))).toBe(false);
    expect((await lock(copies)).skills).toEqual({});
  });

  it("adds from a local HTTP catalog, sees it change, and updates it", async () => {
    const catalogProject = join(base, "catalog-project");
    await mkdir(join(catalogProject, ".git"), { recursive: true });
    let body = skill("site-help", "Help for the site.");
    server.set("/.well-known/skills/index.json", {
      body: JSON.stringify({ skills: [{ name: "site-help", description: "Help for the site.", files: ["SKILL.md"] }] }),
    });
    server.set("/.well-known/skills/site-help/SKILL.md", () => ({ body }));
    const url = `${server.url}/.well-known/skills/index.json`;
    const added = await run(["add", url, "--agent", "windsurf"], catalogProject);
    expect(added.code, added.stderr).toBe(0);
    expect((await lock(catalogProject)).skills["site-help"]).toMatchObject({
      source: url,
      sourceType: "catalog",
      agents: ["windsurf"],
    });
    body = skill("site-help", "Better help for the site.");
    const outdated = JSON.parse((await run(["outdated", "--json"], catalogProject)).stdout);
    expect(outdated).toMatchObject([{ name: "site-help", status: "outdated" }]);
    const updated = await run(["update"], catalogProject);
    expect(updated.code, updated.stderr).toBe(0);
    expect(await readFile(join(catalogProject, ".windsurf", "skills", "site-help", "SKILL.md"), "utf8")).toBe(body);
  });

  it("add_skill adds from a catalog over MCP, and leaves file:// repositories to the CLI", async () => {
    const toolProject = join(base, "tool-project");
    await mkdir(join(toolProject, ".git"), { recursive: true });
    const { client, transport } = await connectCli([], { cwd: toolProject });
    try {
      const added = await client.callTool({
        name: "add_skill",
        arguments: { source: `${server.url}/.well-known/skills/index.json`, agents: ["windsurf"] },
      });
      expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
      expect(added.structuredContent).toMatchObject({
        added: [{ folder: "site-help", agents: ["windsurf"] }],
        failures: [],
      });
      expect(existsSync(join(toolProject, ".windsurf", "skills", "site-help", "SKILL.md"))).toBe(true);
      expect((await lock(toolProject)).skills["site-help"].sourceType).toBe("catalog");
      const local = await client.callTool({ name: "add_skill", arguments: { source: repo.url } });
      expect(local.isError).toBe(true);
      expect(JSON.stringify(local.content)).toContain("add a local folder, archive or file:// repository with the CLI");
      // Nothing listens on port 1: the failed ls-remote is the caller's error, in one line, not an internal one.
      const unreachable = await client.callTool({
        name: "add_skill",
        arguments: { source: "https://127.0.0.1:1/none.git" },
      });
      expect(unreachable.isError).toBe(true);
      expect(JSON.stringify(unreachable.content)).toMatch(/https:\/\/127\.0\.0\.1:1\/none\.git: git ls-remote failed/);
      // A source that names nothing is the caller's mistake too, never an internal error.
      const blank = await client.callTool({ name: "add_skill", arguments: { source: " " } });
      expect(blank.isError).toBe(true);
      expect(JSON.stringify(blank.content)).toContain('\\" \\" names no source');
    } finally {
      await transport.close();
    }
  });

  it("reads a project set up by npx skills, and add of the same skill replaces its entry instead of duplicating it", async () => {
    const npx = join(base, "npx-project");
    const content = skill("review", "Review a change.");
    await mkdir(join(npx, ".agents", "skills", "review"), { recursive: true });
    await mkdir(join(npx, ".claude", "skills"), { recursive: true });
    await writeFile(join(npx, ".agents", "skills", "review", "SKILL.md"), content);
    await symlink(join("..", "..", ".agents", "skills", "review"), join(npx, ".claude", "skills", "review"));
    // The local lock npx skills writes (src/local-lock.ts): version 1, source, ref, sourceType, computedHash.
    const npxLock = {
      version: 1,
      skills: {
        review: { source: "acme/skills", sourceType: "github", computedHash: npxHash({ "SKILL.md": content }) },
      },
    };
    await writeFile(join(npx, "skills-lock.json"), `${JSON.stringify(npxLock, null, 2)}\n`);
    const installed = await run(["installed", "--json"], npx);
    expect(installed.code, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject([
      {
        name: "review",
        state: "ok",
        agents: ["claude-code", "universal"],
        source: "acme/skills",
        installedBy: "npx skills",
      },
    ]);
    const added = await run(["add", `${repo.url}#${first}:skills@review`], npx);
    expect(added.code, added.stderr).toBe(0);
    const after = await lock(npx);
    expect(Object.keys(after.skills)).toEqual(["review"]);
    expect(after.skills.review).toMatchObject({
      commit: first,
      pinned: true,
      agents: ["claude-code", "universal"],
      computedHash: npxHash({ "SKILL.md": content }),
    });
    expect(lstatSync(join(npx, ".claude", "skills", "review")).isSymbolicLink()).toBe(true);
  });

  it("names an install folder after a valid skill name, never 'Ahrefs Automation'; install takes --agent", async () => {
    const odd = await createRepository(
      { "skills/Ahrefs Automation/SKILL.md": skill("Ahrefs Automation", "Automate Ahrefs.") },
      base,
    );
    const target = join(base, "odd-project");
    await mkdir(join(target, ".git"), { recursive: true });
    const added = await run(["add", odd.url, "--agent", "claude-code", "--verbose"], target);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^added ahrefs-automation at /);
    expect(added.stdout).toContain("\n  SKILL.md\n");
    expect(existsSync(join(target, ".agents", "skills", "ahrefs-automation", "SKILL.md"))).toBe(true);
    const installed = await runCli(
      ["install", "Ahrefs Automation", "--skills-dir", join(odd.work, "skills"), "--to", "./vendor"],
      { cwd: target, env },
    );
    expect(installed.code, installed.stderr).toBe(0);
    expect(existsSync(join(target, "vendor", "ahrefs-automation", "SKILL.md"))).toBe(true);
    const agents = await runCli(
      [
        "install",
        "Ahrefs Automation",
        "--skills-dir",
        join(odd.work, "skills"),
        "--agent",
        "windsurf",
        "--agent",
        "trae",
      ],
      { cwd: target, env },
    );
    expect(agents.code, agents.stderr).toBe(0);
    expect(existsSync(join(target, ".windsurf", "skills", "ahrefs-automation", "SKILL.md"))).toBe(true);
    expect(existsSync(join(target, ".trae", "skills", "ahrefs-automation", "SKILL.md"))).toBe(true);
  });

  it.each(["node24", "bun", "deno"] as const)(
    "adds, removes and restores on %s (proper-lockfile and links in the bundle)",
    async (runtime) => {
      const dir = join(base, `runtime-${runtime}`);
      await mkdir(join(dir, ".git"), { recursive: true });
      const cli = (args: string[]) => runCli(args, { cwd: dir, env, runtime, timeoutMs: 60_000 });
      const added = await cli(["add", `${repo.url}:skills`, "--agent", "windsurf"]);
      expect(added.code, added.stderr).toBe(0);
      expect((await cli(["remove", "review"])).code).toBe(0);
      await rm(join(dir, ".agents"), { recursive: true, force: true });
      const restored = await cli(["restore"]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(lstatSync(join(dir, ".windsurf", "skills", "deploy")).isSymbolicLink()).toBe(true);
      expect(existsSync(join(dir, ".windsurf", "skills", "deploy", "SKILL.md"))).toBe(true);
      expect(Object.keys((await lock(dir)).skills)).toEqual(["deploy"]);
    },
  );

  // script(1) gives the CLI a terminal; without it this test cannot run here.
  it.skipIf(!HAS_SCRIPT)(needsScript("shows a progress line on a terminal, and none when CI is set"), async () => {
    const dir = join(base, "terminal");
    await mkdir(join(dir, ".git"), { recursive: true });
    const inTerminal = (ci: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} add ${JSON.stringify(`${repo.url}:skills@deploy`)} --agent claude-code --force`;
        const child = spawn("/usr/bin/script", ["-qec", command, "/dev/null"], {
          cwd: dir,
          env: { ...process.env, ...env, CI: "", ...ci },
        });
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
        child.on("error", reject);
        child.on("close", () => resolve(out));
      });
    const shown = await inTerminal({});
    expect(shown).toContain(`\r\x1b[Kfetching ${repo.url}:skills@deploy…`);
    expect(shown).toMatch(/added deploy at/);
    const quiet = await inTerminal({ CI: "1" });
    expect(quiet).not.toContain("fetching");
    expect(quiet).toMatch(/added deploy at/);
  });

  it("says once which skill a source lacks, and what it has", async () => {
    const result = await run(["add", `${repo.url}:skills`, "--skill", "nope"], join(base, "racing"));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      `skills-kernel: ${repo.url}:skills has no skill named "nope"; it has: deploy, review`,
    ]);
  });
});
