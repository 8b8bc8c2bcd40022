import { describe, expect, it } from "vitest";
import {
  checkRelativePath,
  decodeText,
  encodeContent,
  MAX_PATH_CHARS,
  skillFileOptionsSchema,
} from "../../src/skills/files/skill-files.js";

describe("checkRelativePath", () => {
  it.each([
    "SKILL.md",
    "references/forms.md",
    "a/b/c/d.txt",
    ".hidden/x",
    "100%.md",
    "a%20b.md",
    "名前.md",
    "..foo",
    "foo..",
    "~/x",
  ])("accepts %s", (path) => {
    expect(checkRelativePath(path)).toBeUndefined();
  });

  it.each([
    ["", "the path is empty"],
    ["x".repeat(MAX_PATH_CHARS + 1), `the path is longer than ${MAX_PATH_CHARS} characters`],
    ["a\0b", "the path holds a NUL byte"],
    ["a\nb", "the path holds a control character"],
    ["a\\b", 'the path holds a backslash; separate folders with "/"'],
    ["/etc/passwd", "the path is absolute; give it relative to the skill folder, as read_skill lists it"],
    ["C:/Windows", "the path is absolute; give it relative to the skill folder, as read_skill lists it"],
    ["%2e%2e/x", "the path holds a percent-encoded '.', '/', '\\', NUL or '%'"],
    ["..%2Fx", "the path holds a percent-encoded '.', '/', '\\', NUL or '%'"],
    ["%252e%252e/x", "the path holds a percent-encoded '.', '/', '\\', NUL or '%'"],
    ["a//b", "the path has an empty segment (a leading, doubled or trailing '/')"],
    ["a/", "the path has an empty segment (a leading, doubled or trailing '/')"],
    ["./a", "the path has a '.' segment"],
    ["a/../b", "the path has a '..' segment; paths may not leave the skill folder"],
    ["\uff0e\uff0e/x", "the path holds characters that read as '.', '/' or '\\' once Unicode-normalised"],
    ["..\uff0fx", "the path holds characters that read as '.', '/' or '\\' once Unicode-normalised"],
    ["a\ufe68b", "the path holds characters that read as '.', '/' or '\\' once Unicode-normalised"],
    ["a\uff0fb", "the path holds a character that looks like '/' or '\\' but is none"],
    ["..\u2215..\u2215x", "the path holds a character that looks like '/' or '\\' but is none"],
    ["a\u2044b", "the path holds a character that looks like '/' or '\\' but is none"],
    ["invoice\u202efdp.exe", "the path holds an invisible or bidirectional formatting character"],
    ["a\u200bb", "the path holds an invisible or bidirectional formatting character"],
  ])("refuses %j", (path, reason) => {
    expect(checkRelativePath(path)).toBe(reason);
  });
});

describe("encodeContent", () => {
  const bytes = (...values: number[]) => new Uint8Array(values);

  it("gives UTF-8 text as is", () => {
    expect(encodeContent(new TextEncoder().encode("héllo ✓"), false)).toEqual({ content: "héllo ✓", encoding: "utf8" });
  });

  it("gives bytes with NUL, or that are not UTF-8, as base64", () => {
    expect(encodeContent(bytes(0x61, 0x00, 0x62), false)).toEqual({ content: "YQBi", encoding: "base64" });
    expect(encodeContent(bytes(0xff, 0xfe, 0x41), false)).toEqual({ content: "//5B", encoding: "base64" });
  });

  it("keeps a cut text file as text, without the cut character", () => {
    const text = new TextEncoder().encode("ab✓");
    expect(encodeContent(text.subarray(0, 4), true)).toEqual({ content: "ab", encoding: "utf8" });
    // Not cut: a trailing partial character is invalid UTF-8.
    expect(encodeContent(text.subarray(0, 4), false).encoding).toBe("base64");
  });

  it("decodes a SKILL.md leniently", () => {
    expect(decodeText(bytes(0x61, 0xff, 0x62), false)).toBe("a\ufffdb");
    expect(decodeText(new TextEncoder().encode("ab✓").subarray(0, 3), true)).toBe("ab");
  });
});

describe("skillFileOptionsSchema", () => {
  it("defaults maxFileBytes to 1 MiB and refuses nonsense", () => {
    expect(skillFileOptionsSchema.parse({})).toEqual({ maxFileBytes: 1024 * 1024, includeSecretFiles: false });
    for (const bad of [{ maxFileBytes: 0 }, { maxFileBytes: 1.5 }, { maxFileBytes: 1e12 }, { maxfilebytes: 1 }]) {
      expect(skillFileOptionsSchema.safeParse(bad).success).toBe(false);
    }
  });
});
