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

  it("keeps each file's read made while a check on first read is pending for that check", async () => {
    const text = new TextEncoder().encode("# a file of the skill\n");
    const reads: string[] = [];
    const counting: CatalogSource = {
      ...source(),
      readDocument: async (path, maxBytes) => {
        reads.push(`${path}:SKILL.md:${maxBytes}`);
        return { bytes: text.subarray(0, maxBytes), size: text.length, truncated: maxBytes < text.length };
      },
      readFile: async (path, file, maxBytes) => {
        reads.push(`${path}:${file}:${maxBytes}`);
        return { bytes: text.subarray(0, maxBytes), size: text.length, truncated: maxBytes < text.length };
      },
    };
    const seen: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((done) => (release = done));
    const onFirstRead: ServeCheck = async (_served, reader) => {
      await held;
      const document = await reader.readDocument(100);
      const file = await reader.readFile("a.md", 5);
      seen.push(new TextDecoder().decode(document.bytes), `${new TextDecoder().decode(file.bytes)}|${file.truncated}`);
      // More than was read before: read again.
      await reader.readFile("b.md", 100);
      return undefined;
    };
    const wrapped = withServeChecks(counting, [], createLogger("silent"), [onFirstRead]);
    await wrapped.load(new AbortController().signal);
    await wrapped.readDocument("one", 100);
    await wrapped.readFile("one", "a.md", 100);
    await wrapped.readFile("one", "b.md", 3);
    // A reader meanwhile is never answered from an earlier read: the file may have changed.
    await wrapped.readFile("one", "a.md", 100);
    expect(reads.at(-1)).toBe("one:a.md:100");
    release();
    await settled();
    expect(seen).toEqual(["# a file of the skill\n", "# a f|true"]);
    expect(reads).toEqual(["one:SKILL.md:100", "one:a.md:100", "one:b.md:3", "one:a.md:100", "one:b.md:100"]);
    // The check is done: a read goes to the source again.
    await wrapped.readFile("one", "a.md", 100);
    expect(reads.at(-1)).toBe("one:a.md:100");
    expect(reads).toHaveLength(6);
  });

  it("gives a check on first read the skill's listing made just before, when it answers the check's limit", async () => {
    const lists: string[] = [];
    const counting: CatalogSource = {
      ...source(),
      listFiles: async (path, limit) => {
        lists.push(`${path}:${limit}`);
        const files = path === "one" ? [{ path: "a.md", size: 1, mtimeMs: 0 }] : [];
        return { files, omitted: path === "two" ? 3 : 0, complete: true };
      },
    };
    const listed: number[] = [];
    const onFirstRead: ServeCheck = async (_served, reader) => {
      listed.push((await reader.listFiles(5_000)).files.length);
      return undefined;
    };
    const wrapped = withServeChecks(counting, [], createLogger("silent"), [onFirstRead]);
    await wrapped.load(new AbortController().signal);
    await wrapped.listFiles("one", 2_000);
    await wrapped.readDocument("one", 100);
    // A listing that omitted files does not answer a larger limit: the check lists for itself.
    await wrapped.listFiles("two", 2_000);
    await wrapped.readDocument("two", 100);
    await settled();
    expect(listed).toEqual([1, 0]);
    expect(lists).toEqual(["one:2000", "two:2000", "two:5000"]);
    // The check is done: a listing is no longer kept for it.
    await wrapped.readDocument("one", 100);
    await wrapped.listFiles("one", 2_000);
    await settled();
    expect(lists).toHaveLength(4);
  });
});
