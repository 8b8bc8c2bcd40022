import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createKernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import type { Plugin } from "../../src/kernel/types.js";
import { ERROR_CODES } from "../../src/kernel/errors.js";
import { INTERNAL_TOKENS } from "../../src/internal-tokens.js";
import { TOKENS } from "../../src/tokens.js";
import { VERSION } from "../../src/version.js";

/** The lists in docs/architecture.md that a test can hold to the code. */
const ROOT = join(import.meta.dirname, "../..");
const DOC = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
const PLUGINS_DOC = readFileSync(join(ROOT, "docs/plugins.md"), "utf8");

/**
 * The paths the folder picture names: one entry a line, indented two spaces a level under the
 * folder above it, a folder ending in "/", a comment after it.
 */
function pictureEntries(picture: string): string[] {
  const parents: string[] = [];
  const entries: string[] = [];
  for (const line of picture.split("\n")) {
    const match = /^( *)([\w.-]+\/?)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 2;
    expect(Number.isInteger(depth) && depth <= parents.length, `indentation of "${line}"`).toBe(true);
    parents.length = depth;
    const path = [...parents, match[2]!].join("").replace(/\/$/, "");
    entries.push(path);
    if (match[2]!.endsWith("/")) parents.push(match[2]!);
  }
  return entries;
}

describe("docs/architecture.md", () => {
  it("lists every token of TOKENS, and no other", () => {
    const listed = [...DOC.matchAll(/^TOKENS\.(\w+) +\/\//gm)].map((match) => match[1]!);
    expect(listed.sort()).toEqual(Object.keys(TOKENS).sort());
  });

  it("gives each token the traits it has: per consumer, whole catalog, its default", async () => {
    for (const [, name, comment] of DOC.matchAll(/^TOKENS\.(\w+) +\/\/ (.*)$/gm)) {
      const token = TOKENS[name as keyof typeof TOKENS];
      expect(/\bper consumer\b/.test(comment!), `${name}: per consumer`).toBe(token.scope === "plugin");
      expect(/\bwhole catalog\b/.test(comment!), `${name}: whole catalog`).toBe(token.wholeCatalog);
      const said = /\bdefault ([\w-]+)$/.exec(comment!)?.[1];
      const booted = token.default ? ((await token.default()) as { name: string }).name : undefined;
      expect(said, `${name}: default`).toBe(booted);
    }
  });

  it("names every built-in plugin folder under its role in 'Where things go', and no other", () => {
    for (const role of readdirSync(join(ROOT, "src/plugins"), { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    )) {
      const row = new RegExp(`^\\| \`${role.name}\` \\| \`src/plugins/${role.name}/\` \\(([^)]*)\\)`, "m").exec(DOC);
      expect(row, role.name).not.toBeNull();
      const listed = [...row![1]!.matchAll(/`([\w-]+)`/g)].map((match) => match[1]!);
      const folders = readdirSync(join(ROOT, "src/plugins", role.name), { withFileTypes: true }).filter((entry) =>
        entry.isDirectory(),
      );
      expect(listed.sort(), role.name).toEqual(folders.map((entry) => entry.name).sort());
    }
  });

  it("draws the tree as it is: every folder it names exists, and every folder down to src/plugins/<role>/<plugin> is in it", () => {
    const picture = /^## The tree\n[\s\S]*?^```text\n([\s\S]*?)^```/m.exec(DOC);
    expect(picture).not.toBeNull();
    const drawn = pictureEntries(picture![1]!);
    expect(
      drawn.filter((entry) => !existsSync(join(ROOT, entry))),
      "named but missing",
    ).toEqual([]);
    const folders = (dir: string, depth: number): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => {
          const path = `${dir}/${entry.name}`;
          return [path, ...(depth > 1 ? folders(path, depth - 1) : [])];
        });
    const expected = [...folders("src", 2), ...folders("src/plugins", 2), ...folders("src/skills", 1)];
    // The files directly in src/ and src/skills/ are what a newcomer opens first.
    const files = ["src", "src/skills"].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `${dir}/${entry.name}`),
    );
    expect(
      [...new Set([...expected, ...files])].filter((path) => !drawn.includes(path)),
      "missing from the picture",
    ).toEqual([]);
  });

  it("names every internal token, and no other", () => {
    const paragraph = /^`INTERNAL_TOKENS` \(`src\/internal-tokens\.ts`[\s\S]*?\n\n/m.exec(DOC);
    expect(paragraph).not.toBeNull();
    const named = [...paragraph![0].matchAll(/`([A-Z][a-z]\w+)` \(/g)].map((match) => match[1]!);
    expect(named.sort()).toEqual(Object.keys(INTERNAL_TOKENS).sort());
  });

  it("quotes the plugin contract's refusals as the kernel words them, in docs/plugins.md", async () => {
    const refusal = async (plugin: unknown) => {
      const booted = createKernel({ config: { plugins: [plugin as Plugin] }, logger: createLogger("silent") });
      return (
        (await booted.then(
          () => undefined,
          (error: unknown) => error,
        )) as Error
      ).message;
    };
    const quoted = (start: string) => new RegExp(`\`(${start}[^\`]*)\``).exec(PLUGINS_DOC.replace(/\n\s*/g, " "))![1]!;
    expect(await refusal({ name: "x", version: 3, setup() {} })).toContain(quoted('plugin "x": version must'));
    expect(await refusal({ name: "x", setup() {}, start() {} })).toContain(quoted('plugin "x": start on'));
    expect(await refusal({ name: "x", version: "3.1.0", kernel: ">=9", setup() {} })).toContain(
      quoted('plugin "x" 3.1.0').replace("0.1.0;", `${VERSION};`),
    );
  });

  it("lists every error code in docs/plugins.md, and no other", () => {
    const listed = [...PLUGINS_DOC.matchAll(/^\| `(SK_ERR_\w+)` \|/gm)].map((match) => match[1]!);
    expect(listed.sort()).toEqual(Object.values(ERROR_CODES).sort());
  });
});
