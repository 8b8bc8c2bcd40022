import { access, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInit } from "../../src/cli/init.js";
import { testIo } from "../helpers/cli-in-process.js";
import { validateSkillFolder } from "../../src/skills/skill-md/validate-folder.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skills-kernel-init-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("skills-kernel init", () => {
  it("makes a folder whose SKILL.md the spec accepts, with references/ and scripts/ when asked", async () => {
    expect(await runInit(join(dir, "pdf-tools"), { references: true, scripts: true }, testIo().io)).toBe(0);
    expect(await validateSkillFolder(join(dir, "pdf-tools"))).toMatchObject({ valid: true, errors: [], warnings: [] });
    await access(join(dir, "pdf-tools", "references", "REFERENCE.md"));
    expect((await stat(join(dir, "pdf-tools", "scripts", "run.sh"))).mode & 0o111).not.toBe(0);
  });

  it("writes the description given, quoted where YAML needs it", async () => {
    await runInit(
      join(dir, "notes"),
      {
        description: "Take notes: when asked, #always",
        references: false,
        scripts: false,
      },
      testIo().io,
    );
    expect(await validateSkillFolder(join(dir, "notes"))).toMatchObject({ valid: true });
    expect(await readFile(join(dir, "notes", "SKILL.md"), "utf8")).toContain("name: notes\n");
  });

  it("refuses a name the spec refuses, and an existing folder, writing nothing", async () => {
    await expect(runInit(join(dir, "Bad_Name"), { references: false, scripts: false }, testIo().io)).rejects.toThrow(
      /cannot make a skill named "Bad_Name": name:/,
    );
    await expect(access(join(dir, "Bad_Name"))).rejects.toThrow();
    await runInit(join(dir, "once"), { references: false, scripts: false }, testIo().io);
    const before = await readFile(join(dir, "once", "SKILL.md"), "utf8");
    await expect(
      runInit(join(dir, "once"), { description: "other", references: false, scripts: false }, testIo().io),
    ).rejects.toThrow(/exists already/);
    expect(await readFile(join(dir, "once", "SKILL.md"), "utf8")).toBe(before);
  });
});
