import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findSkills } from "../../../src/cli/skill-folder.js";
import { auditSkill } from "../../../src/skills/audit/audit-skill.js";
import type { SkillReader } from "../../../src/skills/files/skill-reader.js";
import { DEVELOPMENT } from "./cases/development.js";
import { HELD_BACK } from "./cases/held-back.js";
import { skillMd } from "./cases/risky-case.js";

const CORPUS = fileURLToPath(new URL("../../fixtures/corpus", import.meta.url));

/** A skill's files in memory, as a source reads them. */
function inMemory(files: Record<string, string>): SkillReader {
  const content = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return { bytes, size: bytes.length, truncated: false };
  };
  const others = Object.keys(files).filter((path) => path !== "SKILL.md");
  return {
    readDocument: async () => content(files["SKILL.md"]!),
    listFiles: async () => ({
      files: others.map((path) => ({ path, size: content(files[path]!).size })),
      omitted: 0,
      complete: true,
    }),
    readFile: async (path) => content(files[path]!),
  };
}

const high = (findings: Awaited<ReturnType<typeof auditSkill>>) => findings.filter((f) => f.severity === "high");

describe("auditSkill's high findings alone (the warn mode's)", () => {
  it("are the whole audit's high findings, in its order, on every skill of the fixture corpus", async () => {
    const skills = (await findSkills(CORPUS, { maxDepth: 8, maxDirectories: 10_000 }))!;
    expect(skills.length).toBeGreaterThan(20);
    for (const { reader } of skills)
      expect(await auditSkill(reader, undefined, true)).toEqual(high(await auditSkill(reader)));
  });

  it("are the whole audit's high findings on every risky case, each beside a plain SKILL.md and in one", async () => {
    let found = 0;
    for (const riskyCase of [...DEVELOPMENT, ...HELD_BACK]) {
      const files =
        riskyCase.path === "SKILL.md"
          ? { "SKILL.md": riskyCase.text }
          : { "SKILL.md": skillMd("# Demo\n\nSee the files.\n"), [riskyCase.path]: riskyCase.text };
      const whole = high(await auditSkill(inMemory(files)));
      found += whole.length;
      expect(await auditSkill(inMemory(files), undefined, true)).toEqual(whole);
    }
    expect(found).toBeGreaterThan(100);
  });
});
