import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { memorySkillFiles } from "@modelcontextprotocol/server/ext/skills";
import { nodeSkillFiles } from "@modelcontextprotocol/server/ext/skills/node";
import { afterEach, describe, expect, it } from "vitest";
import { sourceFromFiles } from "../../src/index.js";
import { memorySource, skillMd, startTestKernel, type TestKernel } from "../../src/testing/index.js";

const running: TestKernel[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const test of running.splice(0)) await test.close();
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startTestKernel>[0]): Promise<TestKernel> {
  const test = await startTestKernel(options);
  running.push(test);
  return test;
}

describe("sourceFromFiles", () => {
  it("serves the SDK's memorySkillFiles: skills, their files, and a broken one as a diagnostic", async () => {
    const files = memorySkillFiles({
      "pdf/SKILL.md": skillMd("pdf", "Fill in PDF forms."),
      "pdf/forms/a.txt": "form a",
      "pdf/node_modules/x/y.js": "left out",
      "nested/csv/SKILL.md": skillMd("csv", "Clean CSV files."),
      "bad/SKILL.md": "---\nname: [\n---\n",
    });
    const { kernel, callTool } = await start({
      plugins: [sourceFromFiles({ name: "mem", files }), "fetch-skill-files"],
    });
    expect(
      kernel.catalog
        .list()
        .map((s) => s.qualifiedId)
        .sort(),
    ).toEqual(["mem:csv", "mem:pdf"]);
    expect(kernel.catalog.diagnostics().map((d) => `${d.source} ${d.path} ${d.severity}`)).toEqual([
      "mem bad/SKILL.md error",
    ]);
    const listing = await kernel.catalog.listFiles("pdf", 10);
    expect(listing.files).toEqual([{ path: "forms/a.txt", size: 6 }]);
    const fetched = await callTool("fetch_skill_files", {
      skill_name: "pdf",
      file_paths: ["forms/a.txt", "../csv/SKILL.md"],
    });
    expect(JSON.stringify(fetched.structuredContent)).toContain("form a");
    expect(JSON.stringify(fetched.structuredContent)).not.toContain("Clean CSV");
  });

  it("serves the SDK's nodeSkillFiles, leaving out a symlink with a warning", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "source-from-files-"));
    folders.push(dir);
    await mkdir(path.join(dir, "pdf"));
    await writeFile(path.join(dir, "pdf/SKILL.md"), skillMd("pdf", "Fill in PDF forms."));
    await writeFile(path.join(dir, "outside.txt"), "secret");
    await symlink(path.join(dir, "outside.txt"), path.join(dir, "pdf/link.txt"));
    const { kernel } = await start({ plugins: [sourceFromFiles({ name: "disk", files: nodeSkillFiles(dir) })] });
    expect(kernel.catalog.list().map((s) => s.name)).toEqual(["pdf"]);
    expect((await kernel.catalog.listFiles("pdf", 10)).files).toEqual([]);
    expect(kernel.catalog.diagnostics().map((d) => `${d.path} ${d.code} ${d.severity}`)).toEqual([
      "pdf/link.txt unsupported-file warning",
    ]);
  });

  it("takes visibleTo from the config entry when the plugin declares no options", async () => {
    const files = memorySkillFiles({ "secret/SKILL.md": skillMd("secret", "Platform only.") });
    const plugin = sourceFromFiles({ name: "team", files });
    const entry = [plugin, { visibleTo: { scopes: ["platform"] } }] as const;
    const anonymous = await start({ plugins: [entry, "list-skills"] });
    expect((await anonymous.callTool("list_skills")).structuredContent).toMatchObject({ skills: [] });
    const member = await start({
      plugins: [entry, "list-skills"],
      identity: { subject: "ada", scopes: ["platform"], claims: {} },
    });
    expect((await member.callTool("list_skills")).structuredContent).toMatchObject({ skills: [{ name: "secret" }] });
    await expect(startTestKernel({ plugins: [[plugin, { visibleTo: {} }]] })).rejects.toThrow(
      /visibleTo must name at least one scope/,
    );
  });

  it("memorySource: a test's skills in two lines", async () => {
    const { callTool } = await start({
      plugins: [memorySource("team", { "a/SKILL.md": skillMd("a", "First.") }), "list-skills"],
    });
    expect((await callTool("list_skills")).structuredContent).toMatchObject({
      skills: [{ name: "a", source: "team" }],
    });
  });
});
