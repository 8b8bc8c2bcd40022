import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, runCli } from "../helpers/cli.js";

// What #13 (install) and #14 (secrets) let a user configure or call, through the bundled CLI.

let work: string;
let catalog: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-hardening-"));
  await writeFile(join(work, "package.json"), "{}");
  catalog = join(work, "catalog");
  // An unquoted date in metadata and a name with capitals: real skills install refused one in eight of.
  await mkdir(join(catalog, "Docker Expert"), { recursive: true });
  await writeFile(
    join(catalog, "Docker Expert", "SKILL.md"),
    "---\nname: Docker Expert\ndescription: Containers.\nmetadata:\n  updated: 2025-01-31\n---\n# Docker\n",
  );
  await writeFile(join(catalog, "Docker Expert", ".env"), "SECRET=hunter2\n");
  await writeFile(join(catalog, "Docker Expert", "guide.md"), "# Guide\n");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("install of a skill that breaks the spec", () => {
  it("installs it with warnings, leaving its .env out; --strict refuses it in one line", async () => {
    const target = join(work, "installed");
    // --log-level error: the catalog's own warning about the name is not the line under test.
    const strict = await runCli(
      ["install", "Docker Expert", "--to", target, "--strict", "--skills-dir", catalog, "--log-level", "error"],
      { cwd: work },
    );
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe("");
    expect(strict.stderr).toMatch(
      /^skills-kernel: refusing to install "Docker Expert" \(strict\): its SKILL\.md breaks the Agent Skills spec: .+\n$/,
    );

    const lenient = await runCli(["install", "Docker Expert", "--to", target, "--json", "--skills-dir", catalog], {
      cwd: work,
    });
    expect(lenient.code).toBe(0);
    const result = JSON.parse(lenient.stdout);
    expect(result.files).toEqual(["SKILL.md", "guide.md"]);
    expect(result.left_out).toEqual([{ path: ".env", reason: expect.stringMatching(/usually holds secrets/) }]);
    expect(result.warnings.filter((warning: string) => warning.startsWith("spec: "))).not.toHaveLength(0);
    // A name that is not a valid skill name installs under a valid one derived from it (issue 28).
    expect((await readdir(join(target, "docker-expert"))).sort()).toEqual(["SKILL.md", "guide.md"]);
  });
});

describe("includeSecretFiles in a config", () => {
  it("serves a .env only when the config says so", async () => {
    const config = join(work, "secrets.config.json");
    const plugins = (include: boolean) => [
      ["fs", { roots: [catalog] }],
      ["read-skill", { includeSecretFiles: include }],
      "fetch-skill-files",
    ];
    await writeFile(config, JSON.stringify({ plugins: plugins(true) }));
    const server = await connectCli(["--config", config], { cwd: work });
    try {
      const read = await server.client.callTool({ name: "read_skill", arguments: { skill_name: "Docker Expert" } });
      expect((read.structuredContent as { files: string[] }).files).toEqual([".env", "guide.md"]);
      // fetch-skill-files keeps its default: the .env stays unserved there.
      const fetched = await server.client.callTool({
        name: "fetch_skill_files",
        arguments: { skill_name: "Docker Expert", file_paths: [".env"] },
      });
      expect(JSON.stringify(fetched)).not.toContain("hunter2");
    } finally {
      await server.client.close();
    }
  });
});
