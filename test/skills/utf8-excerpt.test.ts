import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { recode, utf8Bytes, withUtf8Excerpt } from "../../src/skills/utf8-excerpt.js";

describe("recode", () => {
  it("gives what Buffer.from gives, short and past its buffer, in every direction", () => {
    const wide = "Deploy — fast → 🚀 技能 é";
    for (const text of [wide, wide.repeat(300), "\ud800 lone", "é".repeat(9000), "a".repeat(2730), "😀".repeat(1366)]) {
      expect(recode(text, "utf8", "latin1")).toBe(Buffer.from(text, "utf8").toString("latin1"));
      const bytes = Buffer.from(text, "utf8").toString("latin1");
      expect(recode(bytes, "latin1", "utf8")).toBe(Buffer.from(bytes, "latin1").toString("utf8"));
      expect(recode(bytes, "latin1", "latin1")).toBe(bytes);
    }
  });

  it("round-trips an excerpt kept as UTF-8", () => {
    const excerpt = `${"Ω step → next. ".repeat(130)}🚀`;
    expect(withUtf8Excerpt({}, utf8Bytes(excerpt)).excerpt).toBe(excerpt);
  });
});
