import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startGitHttpServer, type GitHttpServer } from "../helpers/git-http-server.js";
import { loopbackCert } from "../helpers/loopback-cert.js";
import { NODE_24, NPX_SKILLS } from "../helpers/runtimes.js";
import { createRepository, git, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * `npx skills check` (skills 1.7.4 on Node 24, the real CLI) over a lock this CLI wrote, with a
 * skill from every kind of source: git over file:// (a URL ending in .git and one not), git over
 * HTTPS (git http-backend on loopback), a folder, an archive file and one over HTTP, a catalog and
 * a site's discovery index. It must read each entry without failing: the git ones and the
 * discovery index's it checks and updates, the folder it leaves (as it does its own), and those it
 * cannot fetch it lists as not updatable. No network: every server is on loopback.
 */
let base: string;
let project: string;
let env: Record<string, string>;
let site: FixtureServer;
let gitHost: GitHttpServer;
let dotGit: TestRepository;
let served: TestRepository;
let plainUrl: string;

const ours = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
/** npx skills' exit code and output: it writes its report on stdout, colours removed. */
async function theirs(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(NODE_24, [NPX_SKILLS, ...args], {
      cwd: project,
      env: { ...process.env, ...env, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1" },
      timeout: 120_000,
    });
    return { code: 0, output: plain(stdout + stderr) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: plain(failed.stdout + failed.stderr) };
  }
}
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
/** The site's discovery 0.2.0 index, one skill-md artifact. */
function publish(description: string): void {
  const body = skill("wk", description);
  site.set("/.well-known/agent-skills/wk/SKILL.md", { body });
  site.set("/.well-known/agent-skills/index.json", {
    body: JSON.stringify({
      $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills: [{ name: "wk", type: "skill-md", description, url: "wk/SKILL.md", digest: sha256(body) }],
    }),
  });
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-npx-check-"));
  project = join(base, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(join(project, ".claude"), { recursive: true });
  const tls = await loopbackCert(base);
  env = {
    HOME: join(base, "home"),
    XDG_CACHE_HOME: join(base, "cache"),
    XDG_STATE_HOME: join(base, "state"),
    CI: "1",
    GIT_SSL_CAINFO: tls.certFile,
    GITHUB_TOKEN: "",
    GH_TOKEN: "",
  };
  dotGit = await createRepository({ "skills/gitdot/SKILL.md": skill("gitdot") }, base);
  const withoutDotGit = await createRepository({ "skills/gitplain/SKILL.md": skill("gitplain") }, base);
  git(base, "clone", "-q", "--bare", withoutDotGit.bare, join(base, "plain"));
  plainUrl = `file://${join(base, "plain")}`;
  served = await createRepository({ "skills/githttps/SKILL.md": skill("githttps") }, base);
  gitHost = await startGitHttpServer(join(served.bare, ".."), undefined, tls);
  await mkdir(join(base, "folder", "fold"), { recursive: true });
  await writeFile(join(base, "folder", "fold", "SKILL.md"), skill("fold"));
  await writeFile(
    join(base, "local.tar.gz"),
    await packTarGz([{ path: "SKILL.md", bytes: new TextEncoder().encode(skill("archfile")) }]),
  );
  site = await startFixtureServer({
    "/team.tar.gz": {
      body: await packTarGz([{ path: "SKILL.md", bytes: new TextEncoder().encode(skill("archhttp")) }]),
    },
    "/cat/catalog.json": {
      body: JSON.stringify({
        version: "1.0.0",
        skills: [{ name: "cat", description: "The cat skill.", path: "cat", files: ["SKILL.md"] }],
      }),
    },
    "/cat/skills/cat/SKILL.md": { body: skill("cat") },
  });
  publish("The wk skill.");
});

afterAll(async () => {
  await site?.close();
  await gitHost?.close();
  await rm(base, { recursive: true, force: true });
});

describe("npx skills check over our lock, a skill from every kind of source (skills 1.7.4, Node 24)", () => {
  const ALL = ["archfile", "archhttp", "cat", "fold", "gitdot", "githttps", "gitplain", "wk"];

  it("reads every entry without a failure, and lists those it cannot fetch instead", async () => {
    for (const source of [
      dotGit.url,
      plainUrl,
      `${gitHost.origin}/origin.git`,
      "../folder",
      "../local.tar.gz",
      `${site.url}/team.tar.gz`,
      `${site.url}/cat/catalog.json`,
      site.url,
    ]) {
      const added = await ours(["add", source, "--agent", "claude-code"]);
      expect(added.code, `${source}: ${added.stderr}`).toBe(0);
    }
    const lock = JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));
    expect(Object.keys(lock.skills)).toEqual(ALL);
    // A site's discovery index, written as npx skills writes its own well-known entries.
    expect(lock.skills.wk).toMatchObject({
      sourceType: "well-known",
      sourceUrl: site.url,
      wellKnownDigest: sha256(skill("wk", "The wk skill.")),
    });
    // No skillPath where npx skills could not use one: it would fail on it.
    for (const name of ["archfile", "archhttp", "cat", "gitplain", "wk"])
      expect(lock.skills[name].skillPath).toBe(undefined);
    for (const name of ["fold", "gitdot", "githttps"]) expect(lock.skills[name].skillPath).toMatch(/SKILL\.md$/);

    const check = await theirs(["check", "-y"]);
    expect(check.code, check.output).toBe(0);
    expect(check.output).not.toMatch(/Failed|✗/);
    expect(check.output).toContain("All project skills are up to date");
    const notUpdatable = check.output.slice(check.output.indexOf("cannot be updated automatically"));
    for (const name of ["archfile", "archhttp", "cat", "gitplain"]) expect(notUpdatable).toContain(`• ${name}`);

    const listed = await theirs(["ls", "--json"]);
    expect(listed.code, listed.output).toBe(0);
    expect((JSON.parse(listed.output) as { name: string }[]).map((entry) => entry.name).sort(), listed.output).toEqual(
      ALL,
    );
  });

  it("updates the git skills and the discovery index's skill when their sources move on", async () => {
    await dotGit.commit({ "skills/gitdot/SKILL.md": skill("gitdot", "The gitdot skill, second edition.") });
    await served.commit({ "skills/githttps/SKILL.md": skill("githttps", "The githttps skill, second edition.") });
    publish("The wk skill, second edition.");
    const check = await theirs(["check", "-y"]);
    expect(check.code, check.output).toBe(0);
    expect(check.output).not.toMatch(/Failed|✗/);
    for (const name of ["gitdot", "githttps", "wk"]) expect(check.output).toContain(`Updated ${name}`);
    for (const name of ["gitdot", "githttps", "wk"])
      expect(await readFile(join(project, ".claude", "skills", name, "SKILL.md"), "utf8")).toContain("second edition");
    // And this CLI still reads the whole lock, npx skills' rewritten entries included.
    const installed = await ours(["installed", "--json"]);
    expect(installed.code, installed.stderr).toBe(0);
    const rows = JSON.parse(installed.stdout) as { name: string; state: string }[];
    expect(rows.map((row) => [row.name, row.state])).toEqual(ALL.map((name) => [name, "ok"]));
  });
});
