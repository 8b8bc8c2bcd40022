import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runValidate } from "../../src/cli/validate.js";
import { testIo } from "../helpers/cli-in-process.js";
import { CORPORA, invalidCount, readManifest } from "../helpers/corpus.js";
import { skillMd, tempDir, writeSkillFile } from "../plugins/sources/fs/files.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `validate` with stdout and stderr captured. */
async function validate(paths: string[], json = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, stdout, stderr } = testIo();
  const code = await runValidate(paths, { json }, io);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** A skills repository: two valid skills (one nested in the other's references/), one invalid, one with a warning. */
async function repository(): Promise<string> {
  const root = join(await tempDir(), "skills");
  await writeSkillFile(root, "good", skillMd("good"));
  await writeSkillFile(root, "good/references/inner", skillMd("inner"));
  await writeSkillFile(root, "bad", `---\nname: Bad\ndescription: x\n---\n`);
  await writeSkillFile(root, "team/extra", `---\nname: extra\ndescription: x\nversion: 2\n---\n`);
  return root;
}

describe("skills-kernel validate", () => {
  it("warns about skills below maxDepth, which a server would not serve, without failing", async () => {
    const root = await tempDir();
    const deep = Array.from({ length: 13 }, (_, index) => `d${index}`).join("/");
    await writeSkillFile(root, "top", skillMd("top"));
    await writeSkillFile(root, deep, skillMd("d12"));
    const { code, stdout } = await validate([root], true);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      skills: { path: string; valid: boolean; warnings: { message: string }[] }[];
    };
    expect(report.skills.find((skill) => skill.path === root)).toMatchObject({
      valid: true,
      warnings: [
        { message: expect.stringMatching(/^1 skill lies more than 12 folders below .* raise the fs option maxDepth/) },
      ],
    });
  });

  it("checks every skill folder under a folder, nested ones included, and exits 1 when one is invalid", async () => {
    const root = await repository();
    const { code, stdout, stderr } = await validate([root]);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    expect(stdout).toBe(
      [
        `${join(root, "bad")}: INVALID (2 errors, 0 warnings)`,
        `  error    name: "Bad" may hold only lowercase letters a-z, digits and hyphens`,
        `  error    name: "Bad" must equal its folder's name "bad"`,
        `${join(root, "good")}: valid (0 errors, 0 warnings)`,
        `${join(root, "good/references/inner")}: valid (0 errors, 0 warnings)`,
        `${join(root, "team/extra")}: valid (0 errors, 1 warning)`,
        `  warning  version: is not a spec field; other clients may ignore it (the spec keeps extra data under metadata)`,
        "",
        "4 skills checked: 3 valid, 1 invalid (2 errors, 1 warning)",
        "",
      ].join("\n"),
    );
  });

  it("takes a folder holding SKILL.md as one skill, and exits 0 when it is valid", async () => {
    const root = await repository();
    const { code, stdout } = await validate([join(root, "good")]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      `${join(root, "good")}: valid (0 errors, 0 warnings)\n\n1 skill checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n`,
    );
  });

  it("takes a SKILL.md file, and several paths at once", async () => {
    const root = await repository();
    const { code, stdout } = await validate([join(root, "good", "SKILL.md"), join(root, "team")]);
    expect(code).toBe(0);
    expect(stdout).toContain(`${join(root, "good", "SKILL.md")}: valid`);
    expect(stdout).toContain(`${join(root, "team", "extra")}: valid (0 errors, 1 warning)`);
    expect(stdout).toContain("2 skills checked: 2 valid, 0 invalid");
  });

  it("prints JSON with --json", async () => {
    const root = await repository();
    const { code, stdout } = await validate([root], true);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ valid: false, checked: 4, invalid: 1 });
    expect(report.skills[0]).toEqual({
      path: join(root, "bad"),
      valid: false,
      errors: [
        { field: "name", message: expect.stringContaining("lowercase") },
        { field: "name", message: expect.stringContaining("must equal") },
      ],
      warnings: [],
    });
  });

  it("exits 2 when a path does not exist or is not a skill", async () => {
    const root = await repository();
    await writeFile(join(root, "notes.txt"), "x");
    const { code, stdout, stderr } = await validate([
      join(root, "good"),
      join(root, "missing"),
      join(root, "notes.txt"),
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `skills-kernel: ${join(root, "missing")} does not exist\nskills-kernel: ${join(root, "notes.txt")} is neither a folder nor a SKILL.md\n`,
    );
  });

  it("fails a folder that holds no skill at all", async () => {
    const empty = join(await tempDir(), "empty");
    await mkdir(join(empty, "sub"), { recursive: true });
    const { code, stdout } = await validate([empty]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `${empty}: INVALID (1 error, 0 warnings)\n  error    folder: holds no skill (no SKILL.md at any depth)`,
    );
  });

  it("shows paths as given, relative ones included", async () => {
    const root = await repository();
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const { stdout } = await validate(["good", "."]);
      expect(stdout.split("\n").filter((line) => !line.startsWith(" "))[0]).toBe("good: valid (0 errors, 0 warnings)");
      expect(stdout).toContain("bad: INVALID");
      expect(stdout).toContain("team/extra: valid");
    } finally {
      process.chdir(cwd);
    }
  });

  for (const corpus of CORPORA) {
    it.skipIf(!corpus.present)(
      corpus.title(`checks every skill of ${corpus.label}, finding invalid those its anomalies say are`),
      async () => {
        const { code, stdout } = await validate([corpus.dir], true);
        expect(code).toBe(1);
        const report = JSON.parse(stdout);
        expect(report).toMatchObject({ checked: readManifest(corpus).length, invalid: invalidCount(corpus) });
      },
    );
  }
});
