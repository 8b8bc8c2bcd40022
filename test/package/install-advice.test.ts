import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string };

function files(folder: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => pattern.test(path))
    .map((path) => join(ROOT, folder, path));
}

/**
 * Until the package is on the npm registry (docs/releasing.md), installing it by name fails: no
 * page, example or message may advise it. A plugin package's name (skills-kernel-plugin-x) is not it.
 */
it("no doc, example or message advises installing skills-kernel from the registry", () => {
  const byName = new RegExp(`\\bnpm (?:install|i|add)(?: -g| --global)? ${pkg.name}(?:@[\\w.]+)?(?![\\w/.-])`);
  // docs/releasing.md says what to write once the package is published.
  const scanned = [
    join(ROOT, "README.md"),
    ...files("docs", /\.md$/).filter((path) => !path.endsWith("releasing.md")),
    ...files("src", /\.ts$/),
    ...files("examples", /\.(md|mjs|ts)$/).filter((path) => !path.includes("node_modules")),
  ];
  const advising = scanned.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .map((line, index) => ({ line, at: `${relative(ROOT, file)}:${index + 1}` }))
      .filter(({ line }) => byName.test(line))
      .map(({ at, line }) => `${at}: ${line.trim()}`),
  );
  expect(advising).toEqual([]);
});
