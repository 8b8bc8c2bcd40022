import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every repository path the docs name in backticks (`src/kernel/kernel.ts`, `test/e2e/`) exists,
 * so a file that moves cannot leave a doc pointing at where it was.
 */
const ROOT = join(import.meta.dirname, "../..");
const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  // The READMEs beside the code they describe (src/plugins/sources/fs/README.md).
  ...readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((name) => name === "README.md" || name.endsWith("/README.md"))
    .map((name) => `src/${name}`),
];
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
  return [...text.matchAll(PATH)]
    .map((match) => match[1]!)
    .filter((path) => !/[<>*]/.test(path) && !NOT_OURS.has(path));
}

/**
 * Source files named by a shorter path (`catalog.ts`, `http/app.ts`, beside a folder the text
 * names) that are not this repository's: the reader's config files, the build's output, other
 * packages' files.
 */
const NOT_SOURCES = new Set([
  ".d.ts",
  "plugins.config.mts",
  "plugins.config.mjs",
  "plugins.config.js",
  "plugins.config.cjs",
  "skills-kernel.config.ts",
  "skills-kernel.config.mjs",
  "skills-kernel.config.js",
  ".config/config.js", // a config a hostile repository plants, in configuration.md and security.md
  "babel.cjs", // jiti's
  "v4/locales/index.js", // zod's
  "fuse.js",
  "next.js",
  "@modelcontextprotocol/sdk/client/index.js",
]);
const SHORT_SOURCE = /`([\w.@-]+(?:\/[\w.@-]+)*\.(?:ts|mts|mjs|js|cjs))`/g;
/** Named from the repository's root (checked above), or the build's output. */
const ROOTED = /^(?:src|test|bench|examples|scripts|docs|dist)\//;

/** Source files named without their folder whose name no tracked file ends with. */
function unknownSources(doc: string, tracked: readonly string[]): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const named = new Set(
    [...text.matchAll(SHORT_SOURCE)]
      .map((match) => match[1]!)
      .filter((path) => !ROOTED.test(path) && !NOT_SOURCES.has(path)),
  );
  return [...named].filter((path) => !tracked.some((file) => file === path || file.endsWith(`/${path}`)));
}

describe("paths named in the docs", () => {
  const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");

  it.each(DOCS)("%s names only paths that exist", (doc) => {
    expect(namedPaths(doc).filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it.each(DOCS)("%s names only source files that exist, when it names them without their folder", (doc) => {
    expect(unknownSources(doc, tracked)).toEqual([]);
  });
});
