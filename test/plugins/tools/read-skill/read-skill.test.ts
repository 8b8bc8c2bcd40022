import { execFileSync } from "node:child_process";
import { mkdtemp, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../../../src/kernel/errors.js";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import readSkill from "../../../../src/plugins/tools/read-skill/index.js";
import { startSkillServer, textOf, type SkillServer } from "../../../helpers/skill-server.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

const PDF_MD =
  "---\nname: pdf\ndescription: Fill PDF forms.\nmetadata:\n  version: 2\n---\n# PDF\n\nRead references/forms.md first.\n";

describe("read_skill", () => {
  let work: string;
  let server: SkillServer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-read-skill-"));
    const project = join(work, "project");
    const user = join(work, "user");
    await writeSkillFile(project, "pdf", PDF_MD);
    await writeSkillFile(project, "pdf/references", "# Forms\n", "forms.md");
    await writeSkillFile(project, "pdf/scripts", "print('fill')\n", "fill.py");
    await writeSkillFile(project, "pdf-tools", skillMd("pdf-tools"));
    await writeSkillFile(project, "bare", skillMd("bare"));
    await writeSkillFile(user, "pdf", skillMd("pdf", "The user's own pdf skill."));
    await writeSkillFile(user, "pdf", "mine", "notes.md");
    await writeSkillFile(project, "many", skillMd("many"));
    for (let i = 0; i < 250; i++)
      await writeSkillFile(project, "many/data", "", `row-${String(i).padStart(3, "0")}.csv`);
    await writeSkillFile(project, "doomed", skillMd("doomed"));
    server = await startSkillServer([project, user], ["read-skill"]);
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it("is read-only, with an output schema, and says it is step 2 of 3 and what comes next", async () => {
    const [tool] = (await server.client.listTools()).tools;
    expect(tool).toMatchObject({ name: "read_skill", annotations: { readOnlyHint: true } });
    expect(tool!.outputSchema).toBeDefined();
    expect(tool!.description).toMatch(/^Step 2 of 3/);
    expect(tool!.description).toContain("fetch_skill_files");
  });

  it("returns the whole SKILL.md, its frontmatter and its files", async () => {
    const result = await server.call("read_skill", { skill_name: "pdf" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      id: "pdf",
      qualified_id: "project:pdf",
      name: "pdf",
      source: "project",
      description: "Fill PDF forms.",
      frontmatter: { name: "pdf", description: "Fill PDF forms.", metadata: { version: 2 } },
      content: PDF_MD,
      size: Buffer.byteLength(PDF_MD),
      truncated: false,
      files: ["references/forms.md", "scripts/fill.py"],
      omitted_files: 0,
      signature: { signed: false },
    });
    const text = textOf(result);
    expect(text).toContain(PDF_MD.trimEnd());
    expect(text).toContain('fetch_skill_files, skill_name "pdf"');
    expect(text).toContain("references/forms.md (8 bytes)");
  });

  it("says when the folder holds nothing else", async () => {
    const result = await server.call("read_skill", { skill_name: "bare" });
    expect(result.structuredContent).toMatchObject({ files: [], omitted_files: 0 });
    expect(textOf(result)).toContain("The skill folder holds no other files.");
  });

  it("reads a shadowed skill by qualified id, or by name within a source", async () => {
    for (const args of [
      { skill_name: "user:pdf" },
      { skill_name: "pdf", source: "user" },
      { skill_name: "user:pdf", source: "user" },
    ]) {
      const result = await server.call("read_skill", args);
      expect(result.structuredContent).toMatchObject({ id: "user:pdf", source: "user", files: ["notes.md"] });
      expect(textOf(result)).toContain('skill_name "user:pdf"');
    }
  });

  it("names close ids for an unknown skill, and the sources for an unknown source", async () => {
    expect(await server.call("read_skill", { skill_name: "pdff" })).toEqual({
      isError: true,
      content: [{ type: "text", text: 'read_skill: no skill named "pdff"; did you mean: pdf, pdf-tools?' }],
    });
    expect(textOf(await server.call("read_skill", { skill_name: "bare", source: "user" }))).toBe(
      'read_skill: no skill named "bare" in source "user"',
    );
    expect(textOf(await server.call("read_skill", { skill_name: "pdf", source: "team" }))).toBe(
      'read_skill: no source named "team"; sources: project, user',
    );
  });

  it("refuses input that fails its schema", async () => {
    for (const args of [{}, { skill_name: "" }, { skill_name: 42 }, { skill_name: "x".repeat(2000) }]) {
      const result = await server.call("read_skill", args);
      expect(result.isError).toBe(true);
    }
  });

  it("shows 200 files and counts the rest", async () => {
    const result = await server.call("read_skill", { skill_name: "many" });
    const structured = result.structuredContent as { files: string[]; omitted_files: number };
    expect(structured.files).toHaveLength(200);
    expect(structured.files[0]).toBe("data/row-000.csv");
    expect(structured.files[199]).toBe("data/row-199.csv");
    expect(structured.omitted_files).toBe(50);
    expect(textOf(result)).toContain("... and 50 more not shown");
  });

  it("refuses a SKILL.md that has become a FIFO since the load, without blocking", async () => {
    const file = join(work, "project", "doomed", "SKILL.md");
    await unlink(file);
    execFileSync("mkfifo", [file]);
    expect(await server.call("read_skill", { skill_name: "doomed" })).toEqual({
      isError: true,
      content: [{ type: "text", text: "read_skill: SKILL.md: is not a regular file but a FIFO" }],
    });
  });
});

describe("read_skill options", () => {
  it("cuts a SKILL.md over maxFileBytes and says so", async () => {
    const root = await tempDir();
    const body = `${skillMd("big")}${"word ".repeat(1000)}`;
    await writeSkillFile(root, "big", body);
    const server = await startSkillServer([root], [["read-skill", { maxFileBytes: 100 }]]);
    try {
      const result = await server.call("read_skill", { skill_name: "big" });
      expect(result.structuredContent).toMatchObject({
        content: body.slice(0, 100),
        truncated: true,
        size: body.length,
      });
      expect(textOf(result)).toContain(`[truncated: the first 100 of ${body.length} bytes]`);
    } finally {
      await server.close();
    }
  });

  it("refuses a bad maxFileBytes at boot", async () => {
    const root = await tempDir();
    const boot = createKernel({
      config: {
        plugins: [
          ["fs", { roots: [root] }],
          ["read-skill", { maxFileBytes: -1 }],
        ],
      },
      logger: createLogger("silent"),
    });
    await expect(boot).rejects.toThrow(ConfigError);
    await expect(boot).rejects.toThrow(/plugin "read-skill": option maxFileBytes/);
  });

  it("is the built-in plugin named read-skill", async () => {
    expect(await builtinPlugins["read-skill"]!()).toBe(readSkill);
  });
});
