import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { skillMd, startTestKernel, type TestKernel } from "skills-kernel/testing";
import { afterEach, describe, expect, it } from "vitest";
import jsonBundle from "../src/index.js";

const running: TestKernel[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const test of running.splice(0)) await test.close();
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A folder holding bundle.json with `files`. */
async function bundle(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "json-bundle-"));
  folders.push(dir);
  await writeFile(path.join(dir, "bundle.json"), JSON.stringify(files));
  return dir;
}

async function start(...args: Parameters<typeof startTestKernel>): Promise<TestKernel> {
  const test = await startTestKernel(...args);
  running.push(test);
  return test;
}

const PLATFORM = { subject: "ada", scopes: [], claims: { groups: ["platform"] } };

describe("the json-bundle source plugin", () => {
  it("serves each folder holding a SKILL.md, with its files", async () => {
    const baseDir = await bundle({
      "pdf/SKILL.md": skillMd("pdf", "Fill in PDF forms."),
      "pdf/scripts/fill.py": "print('fill')\n",
      "team/csv/SKILL.md": skillMd("csv", "Clean CSV files."),
    });
    const { kernel, callTool } = await start({
      plugins: [[jsonBundle, { file: "bundle.json" }], "read-skill", "fetch-skill-files"],
      baseDir,
    });
    expect(
      kernel.catalog
        .list()
        .map((s) => `${s.source}:${s.name}`)
        .sort(),
    ).toEqual(["json-bundle:csv", "json-bundle:pdf"]);
    const read = await callTool("read_skill", { skill_name: "pdf" });
    expect(JSON.stringify(read.structuredContent)).toContain("scripts/fill.py");
    const fetched = await callTool("fetch_skill_files", { skill_name: "pdf", file_paths: ["scripts/fill.py"] });
    expect(JSON.stringify(fetched.structuredContent)).toContain("print('fill')");
  });

  it("reports a broken skill by its file and serves the rest", async () => {
    const baseDir = await bundle({
      "good/SKILL.md": skillMd("good", "A good skill."),
      "broken/SKILL.md": "no frontmatter\n",
    });
    const { kernel } = await start({ plugins: [[jsonBundle, { file: "bundle.json" }]], baseDir });
    expect(kernel.catalog.list().map((s) => s.name)).toEqual(["good"]);
    expect(kernel.catalog.diagnostics().map((d) => `${d.severity} ${d.path}`)).toEqual(["error broken/SKILL.md"]);
  });

  it("shows a bundle with visibleTo only to the callers it names", async () => {
    const baseDir = await bundle({ "secret/SKILL.md": skillMd("secret", "For the platform team.") });
    const plugins = [
      [jsonBundle, { file: "bundle.json", visibleTo: { claims: { groups: ["platform"] } } }],
      "list-skills",
    ] as const;
    const anonymous = await start({ plugins: [...plugins], baseDir });
    expect((await anonymous.callTool("list_skills")).structuredContent).toMatchObject({ skills: [] });
    const member = await start({ plugins: [...plugins], baseDir, identity: PLATFORM });
    expect((await member.callTool("list_skills")).structuredContent).toMatchObject({ skills: [{ name: "secret" }] });
  });
});
