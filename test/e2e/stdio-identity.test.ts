import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";

/** Over stdio the config chooses who the client is, so a team's view can be tried locally. */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sk-stdio-identity-"));
  await mkdir(join(dir, "team/deploy"), { recursive: true });
  await mkdir(join(dir, "public/handbook"), { recursive: true });
  await writeFile(
    join(dir, "team/deploy/SKILL.md"),
    "---\nname: deploy\ndescription: Ship the platform.\n---\n\nDeploy.\n",
  );
  await writeFile(
    join(dir, "public/handbook/SKILL.md"),
    "---\nname: handbook\ndescription: The company handbook.\n---\n\nRead me.\n",
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function listedWith(stdio: unknown[], runtime: Runtime = "node"): Promise<string[]> {
  const config = join(dir, `config-${runtime}-${stdio.length}.json`);
  const fs = [
    "fs",
    { roots: [{ path: "team", source: "team", visibleTo: { claims: { groups: ["platform"] } } }, "public"] },
  ];
  await writeFile(config, JSON.stringify({ plugins: [fs, "list-skills", ...stdio] }));
  const { client } = await connectCli(["--config", config], { runtime });
  try {
    const listed = await client.callTool({ name: "list_skills", arguments: { format: "json" } });
    return (listed.structuredContent as { skills: { id: string }[] }).skills.map((skill) => skill.id).sort();
  } finally {
    await client.close();
  }
}

describe("a config-chosen identity over stdio", () => {
  it.each(Object.keys(RUNTIMES) as Runtime[])(
    "serves a member's view with the stdio plugin's identity, and only unrestricted sources without one, on %s",
    async (runtime) => {
      const member = [["stdio", { identity: { subject: "ada", claims: { groups: ["platform"] } } }]];
      expect(await listedWith(member, runtime)).toEqual(["deploy", "handbook"]);
      expect(await listedWith([], runtime)).toEqual(["handbook"]);
    },
  );

  it("applies to the CLI's commands too, so `list` shows what that caller sees", async () => {
    const config = join(dir, "config-cli.json");
    const fs = [
      "fs",
      { roots: [{ path: "team", source: "team", visibleTo: { scopes: ["team:platform"] } }, "public"] },
    ];
    await writeFile(
      config,
      JSON.stringify({
        plugins: [fs, "list-skills", ["stdio", { identity: { subject: "ada", scopes: ["team:platform"] } }]],
      }),
    );
    expect((await runCli(["list", "--config", config])).stdout.split("\n").filter(Boolean).sort()).toEqual([
      "deploy",
      "handbook",
    ]);
  });
});
