import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "../../src/config/json-error-offset.js";

describe("jsonErrorOffset", () => {
  it.each([
    ['{"a": [1,],}', 9],
    ['{"a": 1,}', 8],
    ["[1 2]", 3],
    ['{"a" 1}', 5],
    ['"open', 5],
    ["{} x", 3],
    ["[01]", 2],
    ['["\\x"]', 3],
    ["", 0],
  ])("finds where %j breaks", (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it("finds nothing wrong wherever JSON.parse finds nothing wrong", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorOffset(text)).toBeUndefined();
      }),
    );
  });

  it("finds a fault wherever JSON.parse throws", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(text) === undefined).toBe(valid);
      }),
    );
  });
});
