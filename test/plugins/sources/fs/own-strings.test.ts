import { describe, expect, it } from "vitest";
import { ownString, ownStrings } from "../../../../src/plugins/sources/fs/own-strings.js";

describe("ownStrings", () => {
  it("copies plain data whole: null prototypes kept, every key its own, __proto__ included", () => {
    const frontmatter = JSON.parse(
      '{"name":"pdf-tools","__proto__":{"polluted":"yes"},"metadata":{"tags":["a long enough tag name","b"]}}',
    );
    Object.setPrototypeOf(frontmatter, null);
    Object.setPrototypeOf(frontmatter.metadata, null);
    const copy = ownStrings(frontmatter);
    expect(copy).not.toBe(frontmatter);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.getPrototypeOf(copy.metadata)).toBeNull();
    expect(Object.keys(copy)).toEqual(["name", "__proto__", "metadata"]);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: "yes" });
    expect(copy.metadata.tags).toEqual(["a long enough tag name", "b"]);
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
  });

  it("copies a string character for character, short and longer than its buffer, one byte a character or not", () => {
    const wide = "Deploy — fast → 🚀 技能 é";
    for (const text of [
      wide,
      wide.repeat(300),
      "\ud800 lone",
      "é".repeat(9000),
      "a".repeat(8192),
      "a".repeat(8193),
      "plain ascii text",
    ]) {
      expect(ownString(text)).toBe(text);
    }
  });

  it("copies the strings of an ASCII text alike when told they need one byte a character", () => {
    const head = `description: ${"plain words ".repeat(40)}\nname: a-long-enough-name\n`;
    const data = Object.assign(Object.create(null), { description: head.slice(13, 400), tags: [head.slice(0, 20)] });
    expect(ownStrings(data, true)).toStrictEqual(data);
    expect(ownString(head.slice(5, 300), true)).toBe(head.slice(5, 300));
  });
});
