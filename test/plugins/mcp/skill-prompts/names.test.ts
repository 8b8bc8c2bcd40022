import { describe, expect, it } from "vitest";
import { WholeCatalog } from "../../../../src/skills/catalog/catalog.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { planSkillPrompts } from "../../../../src/plugins/mcp/skill-prompts/names.js";
import type { CatalogSource, SourceSkill } from "../../../../src/skills/types.js";

const skill = (name: string, path = name): SourceSkill => ({
  name,
  description: name,
  path,
  frontmatter: Object.create(null),
  excerpt: "",
  rank: 0,
});

function source(name: string, skills: SourceSkill[]): CatalogSource {
  const unused = () => Promise.reject(new Error("not in this test"));
  return {
    name,
    description: name,
    load: async () => ({ skills, diagnostics: [] }),
    readDocument: unused,
    listFiles: unused,
    readFile: unused,
  };
}

async function plan(...sources: CatalogSource[]) {
  const catalog = new WholeCatalog(createLogger("silent"));
  for (const s of sources) catalog.addSource(s);
  await catalog.refresh();
  const { prompts, skipped } = planSkillPrompts(catalog.list());
  return { prompts: prompts.map((p) => p.name), skipped: skipped.map((s) => [s.skill.qualifiedId, s.reason]) };
}

describe("which skills get a prompt of their own", () => {
  it("each skill that answers to its plain name, named by it, in catalog order", async () => {
    expect(await plan(source("project", [skill("pdf"), skill("docx"), skill("a.b_c-d")]))).toEqual({
      prompts: ["a.b_c-d", "docx", "pdf"], // the catalog's order: by path within a source
      skipped: [],
    });
  });

  it("not a shadowed skill, which the listing prompt reaches by its qualified id", async () => {
    expect(await plan(source("project", [skill("pdf")]), source("user", [skill("pdf")]))).toEqual({
      prompts: ["pdf"],
      skipped: [],
    });
  });

  it("not a name no prompt name can be", async () => {
    const { prompts, skipped } = await plan(
      source("project", [skill("has space"), skill("名前"), skill("x".repeat(65)), skill("ok")]),
    );
    expect(prompts).toEqual(["ok"]);
    expect(skipped.map(([id]) => id)).toEqual(["project:has space", `project:${"x".repeat(65)}`, "project:名前"]);
    expect(skipped[0]![1]).toBe("its name cannot be a prompt name (letters, digits, '_', '-' and '.', at most 64)");
  });

  it("not a skill named like the listing prompt, in any letter case", async () => {
    expect(await plan(source("project", [skill("skills"), skill("Skills", "b"), skill("ok", "c")]))).toEqual({
      prompts: ["ok"],
      skipped: [
        ["project:Skills", 'its prompt would differ only in letter case from that of "skills"'],
        ["project:skills", '"skills" is the prompt that lists every skill'],
      ],
    });
  });

  it("not a name only letter case tells from an earlier one", async () => {
    expect(await plan(source("project", [skill("PDF"), skill("pdf", "b")]))).toEqual({
      prompts: ["PDF"],
      skipped: [["project:pdf", 'its prompt would differ only in letter case from that of "PDF"']],
    });
  });
});
