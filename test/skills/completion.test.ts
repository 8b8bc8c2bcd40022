import { describe, expect, it } from "vitest";
import { WholeCatalog } from "../../src/skills/catalog/catalog.js";
import { createLogger } from "../../src/kernel/logger.js";
import { SkillFileError } from "../../src/kernel/errors.js";
import {
  completeSkillFiles,
  completeSkillIds,
  completeUriPath,
  completeUriSkill,
  matchPrefix,
} from "../../src/skills/catalog/completion.js";
import type { CatalogSource, SourceSkill } from "../../src/skills/types.js";

const skill = (name: string, path: string): SourceSkill => ({
  name,
  description: `${name} at ${path}`,
  path,
  frontmatter: Object.create(null),
  excerpt: "",
  rank: 0,
});

/** An in-memory source: its skills, and each skill folder's files by skill path. */
function source(name: string, skills: SourceSkill[], files: Record<string, string[]> = {}): CatalogSource {
  const unused = () => Promise.reject(new Error("not in this test"));
  return {
    name,
    description: name,
    load: async () => ({ skills, diagnostics: [] }),
    readDocument: unused,
    readFile: unused,
    async listFiles(skillPath, limit) {
      if (skillPath === "gone") throw new SkillFileError(".", "the skill folder has been replaced since the last scan");
      const all = (files[skillPath] ?? []).toSorted();
      return {
        files: all.slice(0, limit).map((path) => ({ path, size: 1 })),
        omitted: Math.max(0, all.length - limit),
        complete: true,
      };
    },
  };
}

async function catalogOf(...sources: CatalogSource[]) {
  const catalog = new WholeCatalog(createLogger("silent"));
  for (const s of sources) catalog.addSource(s);
  await catalog.refresh();
  return catalog;
}

describe("matchPrefix", () => {
  it("puts matches as typed first, then those that match ignoring case, each sorted, each once", () => {
    expect(matchPrefix(["pdf-b", "PDF", "pdf-a", "docx", "pdf-a", "Pdf-c"], "pdf")).toEqual([
      "pdf-a",
      "pdf-b",
      "PDF",
      "Pdf-c",
    ]);
    expect(matchPrefix(["b", "a"], "")).toEqual(["a", "b"]);
    expect(matchPrefix(["a"], "ab")).toEqual([]);
  });
});

describe("skill id completion", () => {
  it("offers ids by prefix, and qualified ids once the prefix has a ':'", async () => {
    const catalog = await catalogOf(
      source("project", [skill("pdf", "pdf"), skill("pdf-forms", "forms")]),
      source("user", [skill("pdf", "pdf"), skill("docx", "docx")]),
    );
    expect(completeSkillIds(catalog.list(), "pd")).toEqual(["pdf", "pdf-forms"]);
    expect(completeSkillIds(catalog.list(), "user:")).toEqual(["user:docx", "user:pdf"]);
    expect(completeSkillIds(catalog.list(), "project:")).toEqual(["project:pdf", "project:pdf-forms"]);
    expect(completeSkillIds(catalog.list(), "")).toEqual(["docx", "pdf", "pdf-forms", "user:pdf"]);
  });
});

describe("skill file completion", () => {
  it("offers the files the whitelist serves: no file named like credentials unless included", async () => {
    const catalog = await catalogOf(
      source("project", [skill("pdf", "pdf")], { pdf: ["reference.md", "scripts/fill.py", ".env", "scripts/run.sh"] }),
    );
    const pdf = catalog.get("pdf")!;
    expect(await completeSkillFiles(catalog, pdf, "", false)).toEqual([
      "reference.md",
      "scripts/fill.py",
      "scripts/run.sh",
    ]);
    expect(await completeSkillFiles(catalog, pdf, "scr", false)).toEqual(["scripts/fill.py", "scripts/run.sh"]);
    expect(await completeSkillFiles(catalog, pdf, ".", true)).toEqual([".env"]);
  });

  it("offers none when the source refuses the folder", async () => {
    const catalog = await catalogOf(source("project", [skill("gone", "gone")]));
    expect(await completeSkillFiles(catalog, catalog.get("gone")!, "", false)).toEqual([]);
  });
});

describe("skill:// template completion", () => {
  const catalog = catalogOf(
    source("project", [skill("pdf", "pdf"), skill("tools", "tools"), skill("convert", "tools/convert")], {
      pdf: ["reference.md", "forms/a.md"],
      tools: ["README.md", "convert/SKILL.md", "convert/notes.md"],
      "tools/convert": ["notes.md"],
    }),
    source("user", [skill("pdf", "pdf"), skill("docx", "docx")], { pdf: ["mine.md"], docx: ["x.md"] }),
  );

  it("completes {skill} with the first segment of each skill's URI", async () => {
    const skills = (await catalog).list();
    expect(completeUriSkill(skills, "")).toEqual(["docx", "pdf", "tools", "user"]);
    expect(completeUriSkill(skills, "t")).toEqual(["tools"]);
    expect(completeUriSkill(skills, "U")).toEqual(["user"]);
  });

  it("completes {+path} with the SKILL.md and the served files of the skill it names", async () => {
    expect(await completeUriPath(await catalog, "pdf", "", false)).toEqual(["SKILL.md", "forms/a.md", "reference.md"]);
    expect(await completeUriPath(await catalog, "pdf", "f", false)).toEqual(["forms/a.md"]);
  });

  it("offers each skill under a source's segment by its SKILL.md, and its files once the prefix reaches its folder", async () => {
    expect(await completeUriPath(await catalog, "user", "", false)).toEqual(["pdf/SKILL.md"]);
    expect(await completeUriPath(await catalog, "user", "pdf/", false)).toEqual(["pdf/SKILL.md", "pdf/mine.md"]);
  });

  it("lists a nested skill's files once, under the skill that holds it", async () => {
    expect(await completeUriPath(await catalog, "tools", "convert/", false)).toEqual([
      "convert/SKILL.md",
      "convert/notes.md",
    ]);
    expect(await completeUriPath(await catalog, "tools", "", false)).toEqual([
      "README.md",
      "SKILL.md",
      "convert/SKILL.md",
      "convert/notes.md",
    ]);
  });

  it("offers nothing under a segment no skill starts with", async () => {
    expect(await completeUriPath(await catalog, "nope", "", false)).toEqual([]);
  });
});
