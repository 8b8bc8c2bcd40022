import { describe, expect, it } from "vitest";
import { Bm25Ranker } from "../../../src/plugins/rankers/ranker-bm25/index.js";
import type { CatalogSkill } from "../../../src/skills/catalog/catalog-types.js";
import { descriptionProblems } from "../../../src/skills/doctor/descriptions.js";
import { findability } from "../../../src/skills/doctor/findability.js";
import { nearDuplicates } from "../../../src/skills/doctor/near-duplicates.js";
import { MAX_PHRASES, ownPhrases } from "../../../src/skills/doctor/phrases.js";

function skill(name: string, description: string, extra: Partial<CatalogSkill> = {}): CatalogSkill {
  return {
    id: name,
    qualifiedId: `test:${name}`,
    name,
    source: "test",
    path: name,
    description,
    frontmatter: Object.create(null),
    excerpt: "",
    shadowed: false,
    ...extra,
  };
}

describe("a skill's own phrases", () => {
  it("are its first sentence, then each phrase of its triggers", () => {
    expect(
      ownPhrases(
        skill(
          "changelog",
          "Turns merged pull requests into a CHANGELOG entry. Use when preparing a release, writing release notes, or tidying an Unreleased section.",
        ),
      ),
    ).toEqual([
      "Turns merged pull requests into a CHANGELOG entry",
      "preparing a release",
      "writing release notes",
      "tidying an Unreleased section",
    ]);
  });

  it("take when_to_use, a triggers list and 'should be used when', and leave out an opening 'when'", () => {
    const phrases = ownPhrases(
      skill("x", 'This skill should be used when the user asks to "optimize prompts", "tune a system prompt".', {
        frontmatter: Object.assign(Object.create(null), {
          when_to_use: "rewriting instructions for a model",
          triggers: ["prompt audit", "few-shot design"],
        }),
      }),
    );
    expect(phrases).toEqual([
      "optimize prompts",
      "tune a system prompt",
      "rewriting instructions for a model",
      "prompt audit",
      "few-shot design",
    ]);
  });

  it("are at most six, none a single word, none twice, a request's length each", () => {
    const phrases = ownPhrases(
      skill(
        "many",
        `Does a great many things for a great many people in a great many places. Use when ${Array.from({ length: 20 }, (_, i) => `case number ${i}`).join(", ")}, pdf, or Case Number 1.`,
      ),
    );
    expect(phrases).toHaveLength(MAX_PHRASES);
    expect(phrases[0]!.split(" ")).toHaveLength(12);
    expect(new Set(phrases.map((p) => p.toLowerCase())).size).toBe(phrases.length);
    expect(phrases).not.toContain("pdf");
  });
});

describe("findability", () => {
  const catalog = [
    skill("pdf-tables", "Extracts tables from PDF files into CSV. Use when pulling tables out of a PDF."),
    skill(
      "csv-cleaner",
      "Cleans CSV files: fixes CSV encodings and repairs CSV quoting. Use when fixing CSV encodings, repairing CSV quoting, or cleaning a CSV export.",
    ),
    // Its "when" is csv-cleaner's, which says those words more: csv-cleaner comes first on them.
    skill(
      "csv-tidy",
      "Tidies spreadsheets for analysts, reports, dashboards and finance teams in many formats and tools. Use when fixing CSV encodings, or repairing CSV quoting.",
    ),
    skill(
      "commit-writer",
      "Writes Conventional Commits messages from a staged diff. Use when asked for a commit message.",
    ),
  ];

  it("scores a skill by where its own phrases find it, and names the skill that takes its place", async () => {
    const ranker = new Bm25Ranker();
    ranker.build(catalog);
    const [pdf, , tidy, commit] = await findability(ranker, catalog);
    expect(pdf!.score).toBe(100);
    expect(pdf!.collision).toBeUndefined();
    expect(commit!.score).toBe(100);
    expect(tidy!.collision?.id).toBe("csv-cleaner");
    expect(tidy!.collision!.phrases.length * 2).toBeGreaterThan(tidy!.phrases.length);
    expect(tidy!.score).toBeLessThan(100);
    expect(tidy!.phrases.find((p) => p.rank !== 1)?.above).toContain("csv-cleaner");
  });

  it("has no score for a skill with no phrase to try", async () => {
    const ranker = new Bm25Ranker();
    const lone = skill("x", "Tiny.");
    ranker.build([lone]);
    const [result] = await findability(ranker, [lone]);
    expect(result).toMatchObject({ score: undefined, phrases: [], outrankedBy: [] });
  });
});

describe("near-duplicate descriptions", () => {
  it("pairs descriptions that say the same, once per pair, and leaves different ones alone", () => {
    const a = skill("a", "Converts Markdown documents to PDF with a table of contents and page numbers.");
    const b = skill("b", "Converts Markdown documents to PDF, with page numbers and a table of contents.");
    const c = skill("c", "Reviews pull requests for security problems.");
    const found = nearDuplicates([a, b, c], [a, b, c]);
    expect(found.map((pair) => [pair.skill.id, pair.other.id])).toEqual([["a", "b"]]);
    expect(found[0]!.similarity).toBeGreaterThanOrEqual(0.9);
    expect(nearDuplicates([c], [a, b, c])).toEqual([]);
  });
});

describe("description problems", () => {
  it("say what keeps a description from being picked", () => {
    const codes = (s: CatalogSkill, all: CatalogSkill[] = [s]) => descriptionProblems(s, all).map((p) => p.code);
    expect(codes(skill("ok", "Writes release notes from merged pull requests. Use when preparing a release."))).toEqual(
      [],
    );
    expect(codes(skill("bare", "Writes release notes from merged pull requests for the project."))).toEqual([
      "no-trigger",
    ]);
    expect(codes(skill("short", "Notes. Use when releasing."))).toEqual(["too-short"]);
    expect(codes(skill("long", `${"Word ".repeat(220)}Use when asked.`))).toEqual(["too-long", "trigger-late"]);
    const mine = skill("pdf", "Extracts text from PDF files. Use when reading a PDF.");
    const theirs = skill("pdf", "Another PDF skill. Use when reading a PDF.", {
      id: "user:pdf",
      qualifiedId: "user:pdf",
      source: "user",
      shadowed: true,
    });
    const clash = (s: CatalogSkill) => descriptionProblems(s, [mine, theirs]).find((p) => p.code === "name-clash");
    expect(clash(mine)?.message).toMatch(/user:pdf \(source user\).*qualified id/);
    expect(clash(theirs)?.message).toMatch(/answers to user:pdf only/);
  });
});
