import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";

// `npm run test:unit` must run on a fresh clone with nothing but `npm ci`: no built bundle, no test
// runtimes, no redis-server or nginx. A unit test that needs one belongs in the e2e project
// (vitest.config.ts): this fails when a unit test file, or a test module it imports, reaches for one.

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
const HELPERS = fileURLToPath(new URL("helpers/", import.meta.url));

/** The helpers that start or need what the unit project may not use. */
const FORBIDDEN_MODULES: Readonly<Record<string, string>> = {
  [`${HELPERS}cli.ts`]: "runs the built bundle",
  [`${HELPERS}runtimes.ts`]: "names the test runtimes (Node 24, Bun, Deno)",
  [`${HELPERS}redis.ts`]: "starts a redis-server",
  [`${HELPERS}nginx.ts`]: "starts nginx",
  [`${HELPERS}chromium.ts`]: "starts Chromium",
};

/** The same needs, written out in a test's own code. */
const FORBIDDEN_TEXT: readonly [RegExp, string][] = [
  [/\bdist\/(cli|index)\.js|["'`]dist["'`]/, "uses the built bundle (dist/)"],
  [/runtimes\/node_modules/, "uses the test runtimes (test/runtimes)"],
  [/["'`]redis-server["'`]/, "starts a redis-server"],
  [/["'`](\/usr\/s?bin\/)?nginx["'`]/, "starts nginx"],
];

/** Relative imports of a TypeScript module (static, re-exports and dynamic), as the files they name. */
function localImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((match) => match[1]!);
  return specifiers
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, ".ts")))
    .filter((path) => path.startsWith(`${REPO_ROOT}test/`) && existsSync(path));
}

/** Why `file` cannot be a unit test, through each module it imports from test/; empty when it can. */
function violations(file: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string, chain: string[]) => {
    if (seen.has(path)) return;
    seen.add(path);
    const via = [...chain, relative(REPO_ROOT, path)].join(" -> ");
    const forbidden = FORBIDDEN_MODULES[path];
    if (forbidden) {
      found.push(`${via} ${forbidden}`);
      return;
    }
    const text = readFileSync(path, "utf8");
    for (const [pattern, why] of FORBIDDEN_TEXT) if (pattern.test(text)) found.push(`${via} ${why}`);
    for (const imported of localImports(path, text)) visit(imported, [...chain, relative(REPO_ROOT, path)]);
  };
  visit(file, []);
  return found;
}

describe("the unit project", () => {
  it("holds no test that needs the bundle, a runtime, Redis or nginx", () => {
    const files = inject("unitFiles");
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(violations)).toEqual([]);
  });

  it("would catch each kind of forbidden use", () => {
    const why = (path: string) => violations(fileURLToPath(new URL(path, import.meta.url))).join("\n");
    expect(why("e2e/cache.test.ts")).toMatch(
      /helpers\/cli\.ts runs the built bundle[\s\S]*helpers\/redis\.ts starts a redis-server/,
    );
    expect(why("e2e/http-replicas.test.ts")).toMatch(/helpers\/nginx\.ts starts nginx/);
    expect(why("conformance/conformance.test.ts")).toMatch(/helpers\/runtimes\.ts names the test runtimes/);
    expect(why("cli/remote-flags.e2e.test.ts")).toMatch(
      /^test\/cli\/remote-flags\.e2e\.test\.ts uses the built bundle/m,
    );
  });
});
