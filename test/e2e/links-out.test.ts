import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAuth2Server } from "oauth2-mock-server";
import { connectCli, runCli } from "../helpers/cli.js";
import { connectHttp } from "../helpers/http-client.js";
import { startHttpServer } from "../helpers/http-server.js";
import { filesHolding } from "../helpers/grep.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * A repository's links never lead out of it: a skill folder linked (relatively, climbing out of the
 * cache's checkout, or absolutely) to a private folder of the user, or to a team's folder that
 * another source serves to that team alone, is neither listed, read, fetched nor installed. Real
 * repositories over file://, the shipped bundle.
 */
const SECRET = "PRIVATE-NOTES-canary-7c1f";

let base: string;
let privateNotes: string;
let teamFolder: string;
let repo: TestRepository;
let env: Record<string, string>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-links-out-"));
  privateNotes = join(base, "home", ".claude", "skills", "private-notes");
  await mkdir(privateNotes, { recursive: true });
  await writeFile(join(privateNotes, "SKILL.md"), skill("private-notes", `My notes: ${SECRET}.`));
  await writeFile(join(privateNotes, "diary.md"), `${SECRET}\n`);
  teamFolder = join(base, "team");
  await mkdir(join(teamFolder, "payroll"), { recursive: true });
  await writeFile(join(teamFolder, "payroll", "SKILL.md"), skill("payroll", `The team's payroll: ${SECRET}.`));

  repo = await createRepository(
    { "skills/public/SKILL.md": skill("public", "A skill of the repository."), "other/kept/SKILL.md": skill("kept") },
    base,
  );
  // Climbing out of the checkout, wherever the cache puts it: `..` stops at `/`.
  await symlink(`${"../".repeat(40)}${privateNotes.slice(1)}`, join(repo.work, "skills", "steal"));
  await symlink(privateNotes, join(repo.work, "skills", "steal-abs"));
  await symlink(join(teamFolder, "payroll"), join(repo.work, "skills", "team-payroll"));
  // Inside the checkout, but out of the folder served: the source is `skills`, not the repository.
  await symlink("../other/kept", join(repo.work, "skills", "sideways"));
  // A file linked out of a skill folder: never served (as before), checked here beside the folders.
  await symlink(join(privateNotes, "diary.md"), join(repo.work, "skills", "public", "diary.md"));
  // The served folder itself a link out.
  await symlink(join(base, "home", ".claude", "skills"), join(repo.work, "linked-root"));
  await repo.commit({}, "links out");
  env = { XDG_CACHE_HOME: join(base, "cache"), HOME: join(base, "home") };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("a git repository linking out of its checkout", () => {
  it("serves nothing of what the links lead to: list, read_skill, fetch_skill_files", async () => {
    const { client, transport } = await connectCli(["--git", `${repo.url}:skills`], { cwd: base, env });
    try {
      const listed = await client.callTool({ name: "list_skills", arguments: { format: "json" } });
      const ids = (listed.structuredContent as { skills: { id: string }[] }).skills.map((entry) => entry.id);
      expect(ids).toEqual(["public"]);
      for (const name of ["private-notes", "steal", "steal-abs", "payroll", "team-payroll", "kept"]) {
        const read = await client.callTool({ name: "read_skill", arguments: { skill_name: name } });
        expect(read.isError, name).toBe(true);
        expect(JSON.stringify(read)).not.toContain(SECRET);
      }
      const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "public" } });
      expect((read.structuredContent as { files: string[] }).files).not.toContain("diary.md");
      const fetched = await client.callTool({
        name: "fetch_skill_files",
        arguments: { skill_name: "public", file_paths: ["diary.md", "../steal/SKILL.md", "../steal/diary.md"] },
      });
      expect(JSON.stringify(fetched)).not.toContain(SECRET);
    } finally {
      await transport.close();
    }
  });

  it("copies nothing of them with add --copy", async () => {
    const project = join(base, "project");
    await mkdir(project, { recursive: true });
    const result = await runCli(["add", `${repo.url}:skills`, "--agent", "claude-code", "--copy"], {
      cwd: project,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(join(project, ".claude", "skills"))).toEqual(["public"]);
    expect((await readdir(join(project, ".claude", "skills", "public"))).sort()).toEqual(["SKILL.md"]);
    expect(filesHolding(project, SECRET)).toBe("");

    // Asked for by name, a linked skill is not in the repository at all.
    const named = await runCli(["add", `${repo.url}:skills@private-notes`, "--agent", "claude-code", "--copy"], {
      cwd: project,
      env,
    });
    expect(named.code).not.toBe(0);
    expect(filesHolding(project, SECRET)).toBe("");
  });

  it("refuses a served folder that is itself a link out", async () => {
    const result = await runCli(["list", "--git", `${repo.url}:linked-root`], { cwd: base, env });
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('folder "linked-root" is a link out of the repository');
    const project = join(base, "project-root");
    await mkdir(project, { recursive: true });
    const added = await runCli(["add", `${repo.url}:linked-root`, "--agent", "claude-code", "--copy"], {
      cwd: project,
      env,
    });
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain('folder "linked-root" is a link out of the repository');
    expect(existsSync(join(project, ".claude"))).toBe(false);
  });

  it("shows an outsider nothing of a team's folder that another source serves to that team", async () => {
    const config = join(base, "team.config.json");
    const team = { path: teamFolder, source: "team", visibleTo: { claims: { groups: ["payroll"] } } };
    const outsider = ["stdio", { identity: { subject: "eve", claims: { groups: ["guests"] } } }];
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["fs", { roots: [team] }],
          ["git", { repositories: [`${repo.url}:skills`] }],
          "list-skills",
          "read-skill",
          outsider,
        ],
      }),
    );
    const { client, transport } = await connectCli(["--config", config], { cwd: base, env });
    try {
      const listed = await client.callTool({ name: "list_skills", arguments: { format: "json" } });
      expect((listed.structuredContent as { skills: { id: string }[] }).skills.map((entry) => entry.id)).toEqual([
        "public",
      ]);
      for (const name of ["payroll", "team-payroll", "origin/team-payroll"]) {
        const read = await client.callTool({ name: "read_skill", arguments: { skill_name: name } });
        expect(read.isError, name).toBe(true);
        expect(JSON.stringify(read)).not.toContain(SECRET);
      }
    } finally {
      await transport.close();
    }
  });
});

describe("on a signed-in team server", () => {
  it("shows an outsider nothing of a team's folder a repository links to, and a member that folder once", async () => {
    const audience = "https://skills.example.com/mcp";
    const idp = new OAuth2Server();
    await idp.issuer.keys.generate("RS256", { kid: "k1" });
    await idp.start(0, "127.0.0.1");
    const token = (groups: string[]) =>
      idp.issuer.buildToken({
        scopesOrTransform: (_header, payload) =>
          Object.assign(payload, { sub: groups.join("-"), aud: audience, groups }),
      });
    const config = join(base, "team-http.config.json");
    const team = { path: teamFolder, source: "team", visibleTo: { claims: { groups: ["payroll"] } } };
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["fs", { roots: [team] }],
          ["git", { repositories: [`${repo.url}:skills`] }],
          "list-skills",
          "read-skill",
          "fetch-skill-files",
          ["http", { oauth: { issuer: idp.issuer.url, audience } }],
        ],
      }),
    );
    const server = await startHttpServer(["--config", config], { cwd: base, env });
    try {
      const ids = async (groups: string[]) => {
        const { client, transport } = await connectHttp(server.mcpUrl, { token: await token(groups) });
        try {
          const listed = await client.callTool({ name: "list_skills", arguments: { format: "json" } });
          const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "team-payroll" } });
          expect(read.isError).toBe(true);
          return (listed.structuredContent as { skills: { id: string }[] }).skills.map((entry) => entry.id).sort();
        } finally {
          await transport.close();
        }
      };
      expect(await ids(["guests"])).toEqual(["public"]);
      expect(await ids(["payroll"])).toEqual(["payroll", "public"]);
    } finally {
      await server.stop();
      await idp.stop();
    }
  });
});

describe("an fs root linking out of its source's folders", () => {
  it("serves a link between the source's own roots (link-mode installs), not one leading elsewhere", async () => {
    const project = join(base, "fs-project");
    await mkdir(join(project, ".agents", "skills", "installed"), { recursive: true });
    await writeFile(join(project, ".agents", "skills", "installed", "SKILL.md"), skill("installed"));
    await mkdir(join(project, ".claude", "skills"), { recursive: true });
    await symlink("../../.agents/skills/installed", join(project, ".claude", "skills", "installed"));
    await symlink(privateNotes, join(project, ".claude", "skills", "stolen"));
    // The embedded default: .claude/skills and .agents/skills are one source, "project".
    const result = await runCli(["list"], { cwd: project, env: { ...env, HOME: join(base, "empty-home") } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("installed\n");
    expect(result.stdout).not.toContain("stolen");
    expect(result.stdout).not.toContain("private-notes");
  });
});
