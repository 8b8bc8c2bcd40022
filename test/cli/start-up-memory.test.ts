import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collector } from "../../src/cli/start-up-memory.js";

describe("collector", () => {
  it("gives V8's collector without --expose-gc, and leaves the flag unset for later contexts", () => {
    const collect = collector();
    expect(typeof collect).toBe("function");
    expect(() => collect!({ type: "minor" })).not.toThrow();
    // A plugin's vm context made afterwards must not find gc() in its globals.
    expect(runInNewContext("typeof gc")).toBe("undefined");
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe("undefined");
  });
});
