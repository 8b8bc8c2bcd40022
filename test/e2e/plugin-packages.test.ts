import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, REPO_ROOT, RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";

/**
 * The example plugin packages (examples/plugins/*), installed by npm workspaces, named by their
 * package names in a user's config, and loaded by the shipped bundle on every runtime.
 */
let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "sk-plugin-packages-")));
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "user-project", private: true, type: "module" }),
  );
  // The user's node_modules: the repo's, where the workspaces are linked under their package names.
  await symlink(join(REPO_ROOT, "node_modules"), join(project, "node_modules"), "dir");
  const skill = (name: string) => strToU8(`---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`);
  await writeFile(
    join(project, "team.zip"),
    zipSync({ "pdf/SKILL.md": skill("pdf"), "pdf/notes.md": strToU8("notes\n"), "csv/SKILL.md": skill("csv") }),
  );
  await writeFile(
    join(project, "bundle.json"),
    JSON.stringify({ "json/SKILL.md": `---\nname: json\ndescription: The json skill.\n---\n# json\n` }),
  );
  await mkdir(join(project, "config"));
  await writeFile(
    join(project, "config/skills.yaml"),
    [
      "plugins:",
      "  - [skills-kernel-plugin-zip, { archives: [../team.zip] }]",
      "  - [skills-kernel-plugin-json-bundle, { file: ../bundle.json }]",
      "  - list-skills",
      "  - read-skill",
      "  - skills-kernel-plugin-skill-stats",
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("each example plugin package depends on nothing of the kernel's but skills-kernel", () => {
  it.each(["zip-source", "skill-stats", "json-bundle"])(
    "%s: skills-kernel is its only peer, and zod is not among its dependencies",
    async (folder) => {
      const manifest = JSON.parse(await readFile(join(REPO_ROOT, "examples/plugins", folder, "package.json"), "utf8"));
      expect(Object.keys(manifest.peerDependencies)).toEqual(["skills-kernel"]);
      expect(Object.keys(manifest.dependencies ?? {})).not.toContain("zod");
    },
  );
});

describe.each(Object.keys(RUNTIMES) as Runtime[])("plugin packages named in a config, on %s", (runtime) => {
  it("serves the zip archive's and the JSON bundle's skills, and the skill_stats tool", async () => {
    const list = await runCli(["list", "--config", "config/skills.yaml"], { cwd: project, runtime, timeoutMs: 30_000 });
    expect(list).toMatchObject({ code: 0, stdout: "csv\njson\npdf\n", stderr: "" });

    const { client, transport } = await connectCli(["--config", "config/skills.yaml"], { cwd: project, runtime });
    try {
      const stats = await client.callTool({ name: "skill_stats", arguments: {} });
      expect(stats.structuredContent).toEqual({ total: 3, bySource: { team: 2, "json-bundle": 1 }, skipped: 0 });
      const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "pdf" } });
      expect(JSON.stringify(read.structuredContent)).toContain("notes.md");
    } finally {
      await transport.close();
    }
  });

  it("refuses to run them from a config found by searching, unless trusted", async () => {
    const found = join(project, "found");
    await mkdir(found, { recursive: true });
    await writeFile(
      join(found, "package.json"),
      JSON.stringify({ "skills-kernel": { plugins: ["skills-kernel-plugin-skill-stats", "list-skills"] } }),
    );
    await symlink(join(REPO_ROOT, "node_modules"), join(found, "node_modules"), "dir").catch(() => undefined);
    const refused = await runCli(["list"], { cwd: found, runtime });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('names plugin module "skills-kernel-plugin-skill-stats"');
    const trusted = await runCli(["list", "--trust-config"], { cwd: found, runtime });
    expect(trusted.stderr).toBe("");
    expect(trusted.code).toBe(0);
  });
});
