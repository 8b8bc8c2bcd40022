import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/kernel/logger.js";
import { withServeChecks, type ServeCheck } from "../../../src/skills/audit/blocking-source.js";
import type { CatalogSource, SourceSkill } from "../../../src/skills/types.js";

const skill = (name: string): SourceSkill => ({
  name,
  description: `${name}.`,
  path: name,
  frontmatter: {},
  excerpt: "",
  rank: 0,
});
const content = { bytes: new Uint8Array([35]), size: 1, truncated: false };

/** A source of two skills whose reads always succeed. */
function source(): CatalogSource {
  return {
    name: "local",
    description: "in memory",
    load: async () => ({ skills: [skill("one"), skill("two")], diagnostics: [] }),
    readDocument: async () => content,
    listFiles: async () => ({ files: [], omitted: 0, complete: true }),
    readFile: async () => content,
  };
}

/** Runs queued background work to its end. */
const settled = () => new Promise((done) => setTimeout(done, 0));

describe("withServeChecks", () => {
  it("checks a skill on its first read after each load, in the background, never at load", async () => {
    const checked: string[] = [];
    const onFirstRead: ServeCheck = async (served) => {
      checked.push(served.name);
      return undefined;
    };
    const wrapped = withServeChecks(source(), [], createLogger("silent"), [onFirstRead]);
    const signal = new AbortController().signal;
    expect((await wrapped.load(signal)).skills.map((s) => s.name)).toEqual(["one", "two"]);
    await settled();
    expect(checked).toEqual([]);
    // A size-only read serves no content.
    await wrapped.readDocument("one", 0);
    await wrapped.listFiles("one", 10);
    await settled();
    expect(checked).toEqual([]);
    await wrapped.readDocument("one", 100);
    await wrapped.readDocument("one", 100);
    await wrapped.readFile("two", "scripts/run.sh", 100);
    await wrapped.readFile("missing", "x", 100);
    await settled();
    expect(checked).toEqual(["one", "two"]);
    // After a reload, a skill is checked again on its next read.
    await wrapped.load(signal);
    await wrapped.readDocument("one", 100);
    await settled();
    expect(checked).toEqual(["one", "two", "one"]);
  });

  it("leaves out a skill a check refuses, with a diagnostic naming why", async () => {
    const refuseTwo: ServeCheck = async (served) =>
      served.name === "two" ? "blocked by the audit: pipe-to-shell at run.sh:1" : undefined;
    const snapshot = await withServeChecks(source(), [refuseTwo], createLogger("silent")).load(
      new AbortController().signal,
    );
    expect(snapshot.skills.map((s) => s.name)).toEqual(["one"]);
    expect(snapshot.diagnostics).toEqual([
      {
        severity: "error",
        source: "local",
        path: "two",
        code: "policy-refused",
        message: "two: blocked by the audit: pipe-to-shell at run.sh:1",
      },
    ]);
  });
});
