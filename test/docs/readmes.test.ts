import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A README beside the code that lists its folder's files (a table whose first column is "File")
 * lists every source file of that folder and no other, so a file added or removed shows there.
 */
const ROOT = join(import.meta.dirname, "../..");
const READMES = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
  .filter((name) => name === "README.md" || name.endsWith("/README.md"))
  .map((name) => `src/${name}`)
  .filter((readme) => /^\| File \|/m.test(readFileSync(join(ROOT, readme), "utf8")));

/** The names in the first column of the file table. */
function listedFiles(text: string): string[] {
  const table = /^\| File \|.*\n\|[-| ]+\|\n((?:\|.*\n)+)/m.exec(text)![1]!;
  return table
    .split("\n")
    .filter(Boolean)
    .flatMap((row) => [...row.split("|")[1]!.matchAll(/`([\w.-]+\.ts)`/g)].map((match) => match[1]!));
}

describe("the file tables of the READMEs beside the code", () => {
  it("has some", () => {
    expect(READMES).toContain("src/plugins/sources/fs/README.md");
  });

  it.each(READMES)("%s lists every source file of its folder, and no other", (readme) => {
    const folder = dirname(readme);
    const files = readdirSync(join(ROOT, folder)).filter((name) => name.endsWith(".ts"));
    expect(listedFiles(readFileSync(join(ROOT, readme), "utf8")).sort()).toEqual(files.sort());
  });
});
