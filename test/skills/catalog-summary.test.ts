import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  listCatalog,
  oneLine,
  summarizeCatalog,
  SUMMARY_DESCRIPTION_CHARS,
  type SummarySkill,
} from "../../src/skills/catalog/catalog-summary.js";

const skills = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `skill-${i}`,
    description: `Does task number ${i}, which takes a sentence or two to describe.`,
  }));

describe("the catalog summary", () => {
  it("lists every skill, one line each, when they fit", () => {
    const summary = summarizeCatalog(
      [
        { id: "pdf", description: "Extract text from PDF files." },
        { id: "user:pdf", description: "The user's own PDF skill." },
      ],
      2_000,
    );
    expect(summary).toEqual({
      text:
        "This server serves 2 skills. Each is a folder of instructions (SKILL.md) for one kind of task:\n" +
        "- pdf: Extract text from PDF files.\n" +
        "- user:pdf: The user's own PDF skill.",
      listed: 2,
      omitted: 0,
    });
  });

  it("lists, for the skills prompt, as many as fit and says how many it left out", () => {
    for (const budget of [300, 333, 1_000, 4_000]) {
      const summary = listCatalog(skills(500), budget);
      expect(summary.text.length).toBeLessThanOrEqual(budget);
      expect(summary.listed + summary.omitted).toBe(500);
      expect(summary.omitted).toBeGreaterThan(0);
      expect(summary.text.split("\n").at(-1)).toBe(
        `(and ${summary.omitted} more skills, left out to keep this summary within ${budget.toLocaleString("en-US")} characters)`,
      );
      // In catalog order, from the first.
      expect(summary.text.split("\n").slice(1, -1)).toEqual(
        skills(summary.listed).map((s) => `- ${s.id}: ${s.description}`),
      );
    }
  });

  it("needs no 'left out' line when the last skill fits without it", () => {
    const all = listCatalog(skills(3), 10_000);
    const exact = listCatalog(skills(3), all.text.length);
    expect(exact).toEqual(all);
    const short = listCatalog(skills(3), all.text.length - 1);
    expect(short.omitted).toBeGreaterThan(0);
    expect(short.text.length).toBeLessThanOrEqual(all.text.length - 1);
  });

  it("says when nothing is served", () => {
    expect(summarizeCatalog([], 500)).toEqual({
      text: "This server serves no skills at the moment.",
      listed: 0,
      omitted: 0,
    });
  });

  it("keeps a description to one line, so it cannot start lines of its own", () => {
    const summary = summarizeCatalog([{ id: "x\ny", description: "first\n\n- fake: injected line\u202e" }], 1_000);
    expect(summary.text.split("\n")).toEqual([
      "This server serves 1 skill. Each is a folder of instructions (SKILL.md) for one kind of task:",
      "- x y: first - fake: injected line\\u202e",
    ]);
  });
});

describe("oneLine", () => {
  it("cuts a long text at a word, with an ellipsis", () => {
    const text = "word ".repeat(100);
    const line = oneLine(text, SUMMARY_DESCRIPTION_CHARS);
    expect(line.length).toBeLessThanOrEqual(SUMMARY_DESCRIPTION_CHARS);
    expect(line).toMatch(/word…$/);
  });

  it("cuts a text without spaces anywhere, never inside a surrogate pair", () => {
    expect(oneLine("a".repeat(50), 10)).toBe(`${"a".repeat(9)}…`);
    expect(oneLine(`${"a".repeat(8)}😀😀`, 10)).toBe(`${"a".repeat(8)}…`);
  });
  it("lists what it would list had it made a line for every skill", () => {
    // The listing stops making lines once they pass the budget; this is its definition in full.
    const everyLine = (catalog: readonly { id: string; description: string }[], maxChars: number) => {
      const header = listCatalog(catalog, 100_000).text.split("\n")[0]!;
      const lines = catalog.map(
        (skill) => `- ${oneLine(skill.id, 100)}: ${oneLine(skill.description, SUMMARY_DESCRIPTION_CHARS)}`,
      );
      const whole = [header, ...lines].join("\n");
      if (whole.length <= maxChars) return { text: whole, listed: catalog.length, omitted: 0 };
      const leftOut = (n: number) =>
        `(and ${n.toLocaleString("en-US")} more skill${n === 1 ? "" : "s"}, left out to keep this summary within ${maxChars.toLocaleString("en-US")} characters)`;
      const room = maxChars - 1 - leftOut(catalog.length).length;
      let used = header.length;
      let listed = 0;
      while (listed < lines.length && used + 1 + lines[listed]!.length <= room) used += 1 + lines[listed++]!.length;
      return {
        text: [header, ...lines.slice(0, listed), leftOut(catalog.length - listed)].join("\n"),
        listed,
        omitted: catalog.length - listed,
      };
    };
    const skill = fc.record({
      id: fc.string({ minLength: 1, maxLength: 120 }),
      description: fc.string({ maxLength: 400 }),
    });
    fc.assert(
      fc.property(
        fc.array(skill, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 300, max: 6_000 }),
        (catalog, maxChars) => {
          expect(listCatalog(catalog, maxChars)).toEqual(everyLine(catalog, maxChars));
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** A skill of `source` in folder `path`, with `words` for a description. */
const at = (source: string, path: string, words: string, frontmatter: Record<string, unknown> = {}): SummarySkill => {
  const name = path.split("/").at(-1)!;
  return { id: name, name, source, path, description: `${words}. Use when the task involves ${words}.`, frontmatter };
};

describe("the summary of a catalog larger than its budget", () => {
  // Three sources: a flat one, one of collections in folders, one whose skills declare categories.
  const catalog: SummarySkill[] = [
    ...Array.from({ length: 60 }, (_, i) => at("project", `skills/tool-${i}`, `project tool ${i} for builds`)),
    ...["marketing", "finance", "legal"].flatMap((area) =>
      Array.from({ length: 30 }, (_, i) => at("team", `${area}/skills/${area}-${i}`, `${area} work item ${i}`)),
    ),
    ...Array.from({ length: 20 }, (_, i) =>
      at("vendor", `v/${i}`, `vendor thing ${i}`, { metadata: { category: i % 2 ? "Design" : "Data" } }),
    ),
  ];

  it("names every source and area with its count, within the budget, then says how to search", () => {
    for (const budget of [1_000, 2_000, 4_000]) {
      const summary = summarizeCatalog(catalog, budget, { howToSearch: "Search with search_skills." });
      const lines = summary.text.split("\n");
      expect(summary.text.length).toBeLessThanOrEqual(budget);
      expect(lines[0]).toMatch(/^This server serves 170 skills from 3 sources, more than fit here\./);
      expect(lines).toContain("- project (60 skills):");
      expect(lines).toContain("- team (90 skills in 3 areas):");
      expect(lines).toContain("- vendor (20 skills in 2 areas):");
      expect(lines.at(-1)).toBe("Search with search_skills.");
      expect(summary.listed + summary.omitted).toBe(170);
    }
    const lines = summarizeCatalog(catalog, 4_000).text.split("\n");
    for (const area of ["marketing/ (30 skills):", "finance/ (30 skills):", "legal/ (30 skills):"])
      expect(lines).toContain(`  - ${area}`);
    expect(lines).toContain("  - Design (category, 10 skills):");
    expect(lines).toContain("  - Data (category, 10 skills):");
  });

  it("gives every area an example before any gets a second", () => {
    const summary = summarizeCatalog(catalog, 2_500);
    const text = summary.text;
    for (const prefix of ["tool-", "marketing-", "finance-", "legal-"]) expect(text).toContain(`- ${prefix}`);
    expect(text).toMatch(/- \d+: vendor thing/);
    expect(summary.listed).toBeGreaterThanOrEqual(6);
  });

  it("labels the skills a source's categories or folders leave over", () => {
    const mixed = [
      ...Array.from({ length: 20 }, (_, i) => at("m", `c/${i}`, `design thing ${i}`, { category: "design" })),
      ...Array.from({ length: 20 }, (_, i) => at("m", `n/${i}`, `plain thing ${i}`)),
      ...Array.from({ length: 20 }, (_, i) => at("f", `top-${i}`, `top thing ${i}`)),
      ...Array.from({ length: 20 }, (_, i) => at("f", `sub/s-${i}`, `sub thing ${i}`)),
    ];
    const lines = summarizeCatalog(mixed, 2_000).text.split("\n");
    expect(lines).toContain("  - design (category, 20 skills):");
    expect(lines).toContain("  - without a category (20 skills):");
    expect(lines).toContain("  - sub/ (20 skills):");
    expect(lines).toContain("  - beside those folders (20 skills):");
  });

  it("counts the areas and sources it has no room for rather than leave them out silently", () => {
    const many = Array.from({ length: 40 }, (_, s) =>
      Array.from({ length: 5 }, (_, i) => at(`source-${s}`, `x/${s}-${i}`, `source ${s} skill ${i}`)),
    ).flat();
    const summary = summarizeCatalog(many, 800);
    expect(summary.text.length).toBeLessThanOrEqual(800);
    const lines = summary.text.split("\n");
    const named = lines.filter((line) => /^- source-\d+ \(/.test(line)).length;
    const rest = lines.find((line) => line.startsWith("- and "));
    expect(rest).toBe(`- and ${40 - named} more sources (${(40 - named) * 5} skills)`);
  });

  it("chooses examples that differ, spread over the sub-folders, rather than the first in order", () => {
    // Ten near-copies first, then skills each about something else.
    // One area, `docs/`, whose first skills in order are ten near-copies in one sub-folder.
    const area = [
      ...Array.from({ length: 10 }, (_, i) => at("s", `docs/a/pdf-${i}`, "extract tables from pdf files")),
      at("s", "docs/b/csv", "clean csv spreadsheets"),
      at("s", "docs/c/email", "draft customer email replies"),
      at("s", "docs/d/deploy", "deploy containers to kubernetes"),
    ];
    const other = Array.from({ length: 30 }, (_, i) => at("s", `ops/o-${i}`, `operations runbook ${i}`));
    const lines = summarizeCatalog([...area, ...other], 1_500).text.split("\n");
    const docs = lines.slice(lines.indexOf("  - docs/ (13 skills):") + 1);
    const examples = docs.slice(
      0,
      docs.findIndex((line) => !line.startsWith("    - ")),
    );
    expect(examples.filter((line) => line.includes("pdf-")).length).toBe(1);
    expect(examples.length).toBe(4);
  });

  it("favours, with a popularity, the skills used most", () => {
    const same = Array.from({ length: 12 }, (_, i) => at("s", `x/copy-${i}`, "format dates in reports"));
    const plain = summarizeCatalog(same, 500).text;
    expect(plain).toContain("- copy-0: ");
    const used = summarizeCatalog(same, 500, { popularity: (skill) => (skill.id === "copy-7" ? 3 : 0) }).text;
    expect(used.split("\n").find((line) => line.startsWith("  - "))).toMatch(/^ {2}- copy-7: /);
    // A popularity that returns nonsense counts as no use at all.
    expect(summarizeCatalog(same, 500, { popularity: () => Number.NaN }).text).toBe(plain);
  });
});
