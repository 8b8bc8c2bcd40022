import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every repository path the docs name in backticks (`src/kernel/kernel.ts`, `test/e2e/`) exists,
 * so a file that moves cannot leave a doc pointing at where it was.
 */
const ROOT = join(import.meta.dirname, "../..");
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
/** Paths the docs name that are someone else's, not this repository's. */
const NOT_OURS = new Set([
  "scripts/install.sh", // a file inside a skill, in security.md's audit example
  "src/local-lock.ts", // vercel-labs/skills' own source, in lifecycle.md
  "test/hello.test.ts", // the plugin package plugins.md writes
]);
const PATH = /`((?:src|test|bench|examples|scripts|docs)\/[\w.@/-]*)`/g;

function namedPaths(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  // Placeholders (`src/plugins/<role>/<plugin>/`) and globs name no one file.
  return [...text.matchAll(PATH)].map((match) => match[1]!).filter((path) => !/[<>*]/.test(path) && !NOT_OURS.has(path));
}

describe("paths named in the docs", () => {
  it.each(DOCS)("%s names only paths that exist", (doc) => {
    expect(namedPaths(doc).filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});
