import { describe, expect, it } from "vitest";
import { nameAbbreviations, outline, textAbbreviations } from "../../../../src/plugins/rankers/ranker-bm25/outline.js";
import { HOSTILE_QUERIES } from "./skills.js";

describe("outline", () => {
  it("lists the headings, and the text of the sections that say when to use the skill", () => {
    const markdown = [
      "# Secret rotation",
      "Intro.",
      "## When to use",
      "- rotating database passwords",
      "- expiring API tokens",
      "## Steps",
      "Do this.",
      "### Use this skill when",
      "a credential leaked",
      `# ${"x".repeat(200)}`,
    ].join("\n");
    const { headings, whenToUse } = outline(markdown);
    expect(headings.split("\n")).toEqual(["Secret rotation", "When to use", "Steps", "Use this skill when"]);
    expect(whenToUse).toContain("rotating database passwords");
    expect(whenToUse).toContain("a credential leaked");
    expect(whenToUse).not.toContain("Do this");
  });

  it("finds a heading wherever a line starts with #, as a multiline ^ does, and nowhere else", () => {
    const markdown =
      "# First ##\nSee issue #12 here\n#not a heading\n  # indented\r## After CR\u2028### After LS\u2029#### After PS #\t\n####### seven\n###### Six";
    expect(outline(markdown).headings.split("\n")).toEqual(["First", "After CR", "After LS", "After PS", "Six"]);
  });
});

describe("abbreviations", () => {
  it("takes the initials of a name's words, three letters or more", () => {
    expect(nameAbbreviations("google-search-console-audit").sort()).toEqual(["gsc", "gsca", "sca"]);
    expect(nameAbbreviations("pdf-tools")).toEqual([]);
  });

  it("takes the initials of capitalised names and of forms a text defines", () => {
    const found = textAbbreviations(
      "Use Google Search Console to check. We use Infrastructure as Code, role-based access control (RBAC) and Amazon Web Services.",
    );
    expect(found).toEqual(expect.arrayContaining(["gsc", "iac", "rbac", "aws"]));
    // A definition holds only when the letters are the initials of the words before it.
    expect(textAbbreviations("we render pages quickly (XYZ)")).toEqual([]);
    expect(textAbbreviations("a plain lower-case sentence without names")).toEqual([]);
  });

  it("needs three words for a capitalised run, connectors counted, and skips them in the initials", () => {
    expect(textAbbreviations("Google Search is here")).toEqual([]);
    expect(textAbbreviations("Bill of Materials is here")).toEqual(["bom"]);
    expect(textAbbreviations("Quality Assurance Test-Plan here").sort()).toEqual(["atp", "qatp"]);
    // "The" is a connector whatever its case; "There" is not.
    expect(textAbbreviations("see The Big Data Lake")).toEqual(["tbdl", "bdl"]);
    expect(textAbbreviations("There Big Data Lake")).toEqual(["tbdl", "bdl"]);
  });

  it("never throws on hostile text", () => {
    for (const text of HOSTILE_QUERIES) {
      expect(() => textAbbreviations(text)).not.toThrow();
      expect(() => outline(text)).not.toThrow();
      expect(() => nameAbbreviations(text)).not.toThrow();
    }
  });
});
