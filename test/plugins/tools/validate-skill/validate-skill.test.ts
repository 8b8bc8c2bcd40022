import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import validateSkillPlugin from "../../../../src/plugins/tools/validate-skill/index.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";
import { boot } from "./kernel.js";

/** A root with a valid skill, a skill whose name differs from its folder, and a lowercase skill.md. */
async function setup() {
  const base = await tempDir();
  const root = join(base, "skills");
  await writeSkillFile(root, "good", skillMd("good"));
  await writeSkillFile(root, "renamed", `---\nname: other-name\ndescription: x\nversion: 2\n---\n# Renamed\n`);
  await writeSkillFile(root, "lower", skillMd("lower"), "skill.md");
  await mkdir(join(root, "empty-folder"));
  const booted = await boot([["fs", { roots: [root] }], "validate-skill"], base);
  const validate = (args: Record<string, unknown>) => booted.call("validate_skill", args);
  return { base, root, validate, ...booted };
}

describe("validate_skill", () => {
  it("is the built-in plugin validate-skill, a read-only tool", async () => {
    expect(await builtinPlugins["validate-skill"]!()).toBe(validateSkillPlugin);
    const { client } = await setup();
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "validate_skill")!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["skill_name", "path", "content", "directory_name"]);
  });

  describe("skill_name", () => {
    it("checks a served skill through its source", async () => {
      const { validate } = await setup();
      const answer = await validate({ skill_name: "good" });
      expect(answer.isError).toBe(false);
      expect(answer.structured).toEqual({ valid: true, errors: [], warnings: [] });
      expect(answer.text).toBe("good (skills:good): valid (0 errors, 0 warnings)");
    });

    it("reports what the loader lets through: a name other than its folder's, a field outside the spec", async () => {
      const { validate } = await setup();
      const answer = await validate({ skill_name: "other-name" });
      expect(answer.structured).toEqual({
        valid: false,
        errors: [{ field: "name", message: `"other-name" must equal its folder's name "renamed"` }],
        warnings: [{ field: "version", message: expect.stringContaining("not a spec field") }],
      });
      expect(answer.text).toContain(
        `other-name (skills:other-name): INVALID (1 error, 1 warning)\n  error    name: "other-name" must equal`,
      );
    });

    it("refuses an unknown skill, naming close ones", async () => {
      const { validate } = await setup();
      const answer = await validate({ skill_name: "godo" });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/^validate_skill: no skill named "godo".*good/);
    });

    it("names a root that is itself a skill after the root's folder", async () => {
      const base = await tempDir();
      const root = join(base, "solo");
      await writeSkillFile(base, "solo", skillMd("solo"));
      const { call } = await boot([["fs", { roots: [root] }], "validate-skill"], base);
      expect((await call("validate_skill", { skill_name: "solo" })).structured.valid).toBe(true);
    });
  });

  describe("path", () => {
    it("checks a skill folder inside a served root, absolute or relative to the server's folder", async () => {
      const { validate, root, base } = await setup();
      expect((await validate({ path: join(root, "good") })).structured.valid).toBe(true);
      const relativeAnswer = await validate({ path: relative(base, join(root, "renamed")) });
      expect(relativeAnswer.structured.errors).toEqual([
        { field: "name", message: expect.stringContaining(`"renamed"`) },
      ]);
    });

    it("warns about a lowercase skill.md", async () => {
      const { validate, root } = await setup();
      const answer = await validate({ path: join(root, "lower") });
      expect(answer.structured.valid).toBe(true);
      expect(answer.structured.warnings).toEqual([
        { field: "file", message: expect.stringContaining("is named skill.md") },
      ]);
    });

    it("finds a folder without SKILL.md invalid", async () => {
      const { validate, root } = await setup();
      const answer = await validate({ path: join(root, "empty-folder") });
      expect(answer.isError).toBe(false);
      expect(answer.structured).toEqual({
        valid: false,
        errors: [{ field: "file", message: expect.stringContaining("holds no SKILL.md") }],
        warnings: [],
      });
    });

    it("refuses a folder outside every served root without looking at it", async () => {
      const { validate, base } = await setup();
      const outside = join(base, "elsewhere");
      await writeSkillFile(base, "elsewhere", skillMd("elsewhere"));
      const answer = await validate({ path: outside });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/is not inside a folder this server serves/);
      // Not "does not exist": a path outside the roots tells nothing about the disk.
      expect((await validate({ path: "/no/such/folder" })).text).toMatch(/is not inside a folder this server serves/);
      expect((await validate({ path: "../../../../etc" })).text).toMatch(/is not inside a folder this server serves/);
      // Nor does it name the folders that are served (#14 item 9).
      expect((await validate({ path: "nowhere" })).text).not.toContain(base);
    });

    it("names a folder as the agent gave it, never by its place on disk", async () => {
      const { validate, root, base } = await setup();
      await mkdir(join(root, "real-place", "no-skill"), { recursive: true });
      await symlink(join(root, "real-place", "no-skill"), join(root, "alias"));
      const answer = await validate({ path: join(root, "alias") });
      expect(answer.structured.errors).toEqual([
        { field: "file", message: `${join(root, "alias")} holds no SKILL.md` },
      ]);
      expect(answer.text).not.toContain("real-place");
      const outside = await validate({ path: "elsewhere\u202egnp" });
      expect(outside.text).toBe(
        "validate_skill: elsewhere\\u202egnp is not inside a folder this server serves; validate a served skill by skill_name, or pass its SKILL.md as content",
      );
      expect(outside.text).not.toContain(base);
    });

    it("refuses a symlink inside a root that leads out of it", async () => {
      const { validate, root, base } = await setup();
      await writeSkillFile(base, "outside-skill", skillMd("outside-skill"));
      await symlink(join(base, "outside-skill"), join(root, "linked"));
      const answer = await validate({ path: join(root, "linked") });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/is not inside a folder this server serves/);
    });

    it("does not read a SKILL.md that is a symlink out of its folder", async () => {
      const { validate, root, base } = await setup();
      await writeFile(join(base, "secret.md"), skillMd("sneaky"));
      await mkdir(join(root, "sneaky"));
      await symlink(join(base, "secret.md"), join(root, "sneaky", "SKILL.md"));
      const answer = await validate({ path: join(root, "sneaky") });
      expect(answer.structured).toMatchObject({
        valid: false,
        errors: [{ field: "file", message: expect.stringContaining("outside the skill folder") }],
      });
    });

    it("says when a path inside a root does not exist", async () => {
      const { validate, root } = await setup();
      const answer = await validate({ path: join(root, "nope") });
      expect(answer.isError).toBe(true);
      expect(answer.text).toBe(`validate_skill: ${join(root, "nope")} does not exist`);
    });
  });

  describe("content", () => {
    it("checks SKILL.md text, against directory_name when given", async () => {
      const { validate } = await setup();
      expect((await validate({ content: skillMd("fresh") })).structured).toEqual({
        valid: true,
        errors: [],
        warnings: [],
      });
      const mismatch = await validate({ content: skillMd("fresh"), directory_name: "stale" });
      expect(mismatch.structured.errors).toEqual([
        { field: "name", message: `"fresh" must equal its folder's name "stale"` },
      ]);
      expect(mismatch.text).toMatch(/^stale: INVALID/);
    });

    it("reports a file with no frontmatter as invalid, not as a failure", async () => {
      const { validate } = await setup();
      const answer = await validate({ content: "# Just markdown" });
      expect(answer.isError).toBe(false);
      expect(answer.structured.errors).toEqual([
        { field: "frontmatter", message: expect.stringContaining("does not start with") },
      ]);
    });
  });

  describe("arguments", () => {
    it.each([
      ["none", {}],
      ["two", { skill_name: "good", content: "x" }],
      ["three", { skill_name: "good", path: "good", content: "x" }],
    ])("refuses %s of skill_name, path and content", async (_label, args) => {
      const { validate } = await setup();
      const answer = await validate(args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(
        /give exactly one of skill_name \(a served skill\), path \(a skill folder\) or content/,
      );
    });

    it("refuses directory_name without content", async () => {
      const { validate } = await setup();
      const answer = await validate({ skill_name: "good", directory_name: "good" });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/directory_name goes with content only/);
    });

    it("refuses content over 1 MiB", async () => {
      const { validate } = await setup();
      const answer = await validate({ content: "x".repeat(1024 * 1024 + 1) });
      expect(answer.isError).toBe(true);
    });
  });
});
