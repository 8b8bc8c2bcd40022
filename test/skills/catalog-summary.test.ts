import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oneLine, summarizeCatalog, SUMMARY_DESCRIPTION_CHARS } from "../../src/skills/catalog/catalog-summary.js";

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

  it("stays within its budget and says how many it left out", () => {
    for (const budget of [300, 333, 1_000, 4_000]) {
      const summary = summarizeCatalog(skills(500), budget);
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
    const all = summarizeCatalog(skills(3), 10_000);
    const exact = summarizeCatalog(skills(3), all.text.length);
    expect(exact).toEqual(all);
    const short = summarizeCatalog(skills(3), all.text.length - 1);
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
    // The summary stops making lines once they pass the budget; this is its definition in full.
    const everyLine = (catalog: readonly { id: string; description: string }[], maxChars: number) => {
      const header = summarizeCatalog(catalog, 100_000).text.split("\n")[0]!;
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
          expect(summarizeCatalog(catalog, maxChars)).toEqual(everyLine(catalog, maxChars));
        },
      ),
      { numRuns: 300 },
    );
  });
});
