import { describe, expect, it } from "vitest";
import { extractTriggers, skillCategory, skillLabels } from "../../../../src/skills/skill-md/skill-fields.js";

const record = (data: Record<string, unknown>) => Object.assign(Object.create(null) as Record<string, unknown>, data);

describe("trigger phrases", () => {
  it("are taken from 'Triggers on', 'Use when' and 'Keywords:' to the end of their sentence", () => {
    expect(extractTriggers("Builds decks. Triggers on pitch deck, keynote. More text.")).toEqual([
      "pitch deck, keynote",
    ]);
    expect(extractTriggers("Writes commits. Use when the user asks for a commit message. Done.")).toEqual([
      "a commit message",
    ]);
    expect(extractTriggers("Use this skill when asked to review a PR")).toEqual(["review a PR"]);
    expect(extractTriggers('Keywords: "helm", k8s, charts')).toEqual(["helm, k8s, charts"]);
    expect(extractTriggers("Nothing to see here.")).toEqual([]);
  });

  it("come out of a hostile description without backtracking for ever", () => {
    const hostile = `${"use when ".repeat(5000)}${"x".repeat(50_000)}`;
    expect(extractTriggers(hostile)).toEqual([]);
  });
});

describe("categories and labels", () => {
  it("read category, tags, keywords, triggers and the like, at the top level or under metadata, in any case", () => {
    const frontmatter = record({
      name: "x",
      Category: "office",
      tags: ["xlsx", 3, { no: "mapping" }, "finance"],
      metadata: record({ domain: "accounting", author: "someone", version: 2, keywords: "ledger" }),
    });
    expect(skillCategory(frontmatter)).toBe("office");
    expect(skillLabels(frontmatter)).toEqual(["office", "xlsx", "finance", "accounting", "ledger"]);
  });

  it("are empty when the frontmatter has none, or has them in shapes that are not labels", () => {
    expect(skillCategory(record({ name: "x" }))).toBe("");
    expect(skillCategory(record({ metadata: record({ category: "git" }) }))).toBe("git");
    expect(skillLabels(record({ tags: 42, metadata: ["not", "a", "mapping"] }))).toEqual([]);
  });
});
