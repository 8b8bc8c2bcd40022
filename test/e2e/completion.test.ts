import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { RUNTIMES, sdkEnvironment, type Runtime } from "../helpers/cli.js";

/** The two protocol revisions a client may open with: 2025-11-25 (initialize) or 2026-07-28 (per request). */
const ERAS = { "2025-11-25": "legacy", "2026-07-28": { pin: "2026-07-28" } } as const;
type Era = keyof typeof ERAS;

/** Skills named bulk-000 ... bulk-119: more than the 100 values one completion answer holds. */
const BULK = 120;
const REF = { type: "ref/resource" as const, uri: "skill://{skill}/{+path}" };

async function writeSkill(root: string, name: string, files: Record<string, string> = {}) {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

const CASES = (Object.keys(RUNTIMES) as Runtime[]).flatMap((runtime) =>
  (Object.keys(ERAS) as Era[]).map((era) => [runtime, era] as const),
);

// The embedded default plugins (skills-extension serving the files, skill-resources, skill-prompts):
// the skill:// template completes through the bundle, whichever revision the client speaks.
describe.each(CASES)("completion of the skill:// template in the default config on %s at %s", (runtime, era) => {
  let work: string;
  let client: Client;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-completion-"));
    const root = join(work, "skills");
    await writeSkill(root, "pdf", { "reference.md": "# Reference\n", "scripts/fill.py": "print('fill')\n" });
    for (let i = 0; i < BULK; i++) await writeSkill(root, `bulk-${String(i).padStart(3, "0")}`);
    const [command, ...prefix] = RUNTIMES[runtime];
    const transport = new StdioClientTransport({
      command,
      args: [...prefix, "--skills-dir", root],
      cwd: work,
      env: sdkEnvironment(),
      stderr: "ignore",
    });
    client = new Client({ name: "skills-kernel-e2e", version: "0" }, { versionNegotiation: { mode: ERAS[era] } });
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
  });
  afterAll(async () => {
    await client?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("lists the template after the Skills extension's own", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "skill://{+path}",
      "skill://{skill}/{+path}",
    ]);
  });

  it("completes skill names by prefix, at most 100 values with the total", async () => {
    expect((await client.complete({ ref: REF, argument: { name: "skill", value: "pd" } })).completion).toEqual({
      values: ["pdf"],
      total: 1,
      hasMore: false,
    });
    const bulk = (await client.complete({ ref: REF, argument: { name: "skill", value: "bulk-" } })).completion;
    expect(bulk.values).toHaveLength(100);
    expect([bulk.values[0], bulk.total, bulk.hasMore]).toEqual(["bulk-000", BULK, true]);
  });

  it("completes the paths inside the named skill, and a completed URI reads", async () => {
    const paths = await client.complete({
      ref: REF,
      argument: { name: "path", value: "" },
      context: { arguments: { skill: "pdf" } },
    });
    expect(paths.completion).toEqual({
      values: ["SKILL.md", "reference.md", "scripts/fill.py"],
      total: 3,
      hasMore: false,
    });
    const scripts = await client.complete({
      ref: REF,
      argument: { name: "path", value: "scr" },
      context: { arguments: { skill: "pdf" } },
    });
    expect(scripts.completion.values).toEqual(["scripts/fill.py"]);
    const { contents } = await client.readResource({ uri: "skill://pdf/scripts/fill.py" });
    expect(contents[0]).toMatchObject({ uri: "skill://pdf/scripts/fill.py", text: "print('fill')\n" });
  });
});
