import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../../../src/kernel/errors.js";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { FETCHABLE_FILES_LIMIT } from "../../../../src/skills/files/skill-files.js";
import fetchSkillFiles from "../../../../src/plugins/tools/fetch-skill-files/index.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import { startSkillServer, textOf, type SkillServer } from "../../../helpers/skill-server.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

describe("fetch_skill_files", () => {
  let work: string;
  let server: SkillServer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-fetch-"));
    const root = join(work, "root");
    await writeSkillFile(root, "pdf", skillMd("pdf"));
    await writeSkillFile(root, "pdf/references", "# Forms\nFill them in.\n", "forms.md");
    await writeSkillFile(root, "pdf/assets", "", "logo.png");
    await writeFile(join(root, "pdf", "assets", "logo.png"), PNG);
    await symlink("../references/forms.md", join(root, "pdf", "assets", "forms-link.md"));
    await writeFile(join(work, "secret.txt"), "top secret");
    await symlink(join(work, "secret.txt"), join(root, "pdf", "assets", "secret.txt"));
    await writeSkillFile(root, "huge", skillMd("huge"));
    // Sorted by name, so "data/f2000.txt" and later fall past the fetchable limit.
    for (let i = 0; i < FETCHABLE_FILES_LIMIT + 10; i++)
      await writeSkillFile(root, "huge/data", `file ${i}`, `f${String(i).padStart(4, "0")}.txt`);
    server = await startSkillServer([root], ["read-skill", "fetch-skill-files"]);
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it("is read-only, with an output schema, and says it is step 3 of 3", async () => {
    const tool = (await server.client.listTools()).tools.find((t) => t.name === "fetch_skill_files");
    expect(tool).toMatchObject({ annotations: { readOnlyHint: true } });
    expect(tool!.outputSchema).toBeDefined();
    expect(tool!.description).toMatch(/^Step 3 of 3/);
    expect(tool!.description).toContain("read_skill");
  });

  it("returns text as utf8, binary as base64, and an error per bad path, in the order asked", async () => {
    const result = await server.call("fetch_skill_files", {
      skill_name: "pdf",
      file_paths: [
        "references/forms.md",
        "assets/logo.png",
        "../secret.txt",
        "assets/secret.txt",
        "assets/forms-link.md",
      ],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      skill: "pdf",
      files: [
        { path: "references/forms.md", content: "# Forms\nFill them in.\n", encoding: "utf8", size: 22 },
        { path: "assets/logo.png", content: PNG.toString("base64"), encoding: "base64", size: PNG.length },
        { path: "../secret.txt", error: "the path has a '..' segment; paths may not leave the skill folder" },
        { path: "assets/secret.txt", error: "leads outside the skill folder" },
        { path: "assets/forms-link.md", content: "# Forms\nFill them in.\n", encoding: "utf8", size: 22 },
      ],
    });
    expect(result.content).toHaveLength(5);
    expect(textOf(result)).toContain("references/forms.md (22 bytes):\n# Forms\nFill them in.\n");
    expect(textOf(result)).toContain(`assets/logo.png (10 bytes, binary, base64):\n${PNG.toString("base64")}`);
    expect(textOf(result)).toContain("../secret.txt: error: the path has a '..' segment");
    expect(JSON.stringify(result)).not.toContain("top secret");
  });

  it("serves exactly the files read_skill lists", async () => {
    const read = await server.call("read_skill", { skill_name: "pdf" });
    const { files } = read.structuredContent as { files: string[] };
    expect(files).toEqual(["assets/forms-link.md", "assets/logo.png", "references/forms.md"]);
    const fetched = await server.call("fetch_skill_files", { skill_name: "pdf", file_paths: files });
    expect((fetched.structuredContent as { files: object[] }).files.every((file) => "content" in file)).toBe(true);
  });

  it("refuses SKILL.md, which read_skill returns", async () => {
    const result = await server.call("fetch_skill_files", { skill_name: "pdf", file_paths: ["SKILL.md"] });
    expect(result.structuredContent).toEqual({
      skill: "pdf",
      files: [
        { path: "SKILL.md", error: "the SKILL.md itself comes from read_skill, not as one of the skill's files" },
      ],
    });
  });

  it("accepts files past the 200 read_skill shows, up to the fetchable limit", async () => {
    const last = `data/f${String(FETCHABLE_FILES_LIMIT - 1).padStart(4, "0")}.txt`;
    const beyond = `data/f${String(FETCHABLE_FILES_LIMIT).padStart(4, "0")}.txt`;
    const result = await server.call("fetch_skill_files", {
      skill_name: "huge",
      file_paths: ["data/f0250.txt", last, beyond],
    });
    expect(result.structuredContent).toEqual({
      skill: "huge",
      files: [
        { path: "data/f0250.txt", content: "file 250", encoding: "utf8", size: 8 },
        { path: last, content: `file ${FETCHABLE_FILES_LIMIT - 1}`, encoding: "utf8", size: 9 },
        {
          path: beyond,
          error: `not one of the files read_skill lists for this skill (files past the first ${FETCHABLE_FILES_LIMIT} by path, or inside a linked folder, are not served)`,
        },
      ],
    });
  });

  it("fails the call only for an unknown skill or input outside its schema", async () => {
    expect(await server.call("fetch_skill_files", { skill_name: "pfd", file_paths: ["a.md"] })).toEqual({
      isError: true,
      content: [{ type: "text", text: 'fetch_skill_files: no skill named "pfd"; did you mean: pdf?' }],
    });
    for (const file_paths of [[], ["a", "b", "c", "d", "e", "f"], "a.md", [1]]) {
      expect((await server.call("fetch_skill_files", { skill_name: "pdf", file_paths })).isError).toBe(true);
    }
  });
});

describe("fetch_skill_files options", () => {
  it("cuts a file over maxFileBytes, says so, and keeps cut text as text", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    await writeSkillFile(root, "s", "ab✓✓✓", "text.md");
    const server = await startSkillServer([root], [["fetch-skill-files", { maxFileBytes: 4 }]]);
    try {
      const result = await server.call("fetch_skill_files", { skill_name: "s", file_paths: ["text.md"] });
      expect(result.structuredContent).toEqual({
        skill: "s",
        files: [{ path: "text.md", content: "ab", encoding: "utf8", size: 11, truncated: true }],
      });
      expect(textOf(result)).toContain("[truncated: the first 4 of 11 bytes]");
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
          ["fetch-skill-files", { maxFileBytes: "1MB" }],
        ],
      },
      logger: createLogger("silent"),
    });
    await expect(boot).rejects.toThrow(ConfigError);
  });

  it("is the built-in plugin named fetch-skill-files", async () => {
    expect(await builtinPlugins["fetch-skill-files"]!()).toBe(fetchSkillFiles);
  });
});
