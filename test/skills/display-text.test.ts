import { describe, expect, it } from "vitest";
import { escapeForDisplay, hasUnsafeCharacter } from "../../src/skills/display-text.js";

describe("escapeForDisplay", () => {
  it.each([
    ["evil\u202egnp.exe", "evil\\u202egnp.exe"],
    ["a\tb\nc\rd", "a\\tb\\nc\\rd"],
    ["zero\u200bwidth\ufeff", "zero\\u200bwidth\\ufeff"],
    ["\u0000\u001b[31m", "\\u0000\\u001b[31m"],
    ["isolate\u2066x\u2069", "isolate\\u2066x\\u2069"],
  ])("escapes %j", (text, shown) => {
    expect(escapeForDisplay(text)).toBe(shown);
    expect(hasUnsafeCharacter(text)).toBe(true);
  });

  it.each(["pdf-tools", "Docker Expert", "名前", "émoji 🎉", "100%.md"])("leaves %j as it is", (text) => {
    expect(escapeForDisplay(text)).toBe(text);
    expect(hasUnsafeCharacter(text)).toBe(false);
  });
});
