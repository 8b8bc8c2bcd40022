import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createKernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import type { Plugin } from "../../src/kernel/types.js";
import { TOKENS } from "../../src/tokens.js";
import { VERSION } from "../../src/version.js";

/** The lists in docs/architecture.md that a test can hold to the code. */
const ROOT = join(import.meta.dirname, "../..");
const DOC = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");

describe("docs/architecture.md", () => {
  it("lists every token of TOKENS, and no other", () => {
    const listed = [...DOC.matchAll(/^TOKENS\.(\w+) +\/\//gm)].map((match) => match[1]!);
    expect(listed.sort()).toEqual(Object.keys(TOKENS).sort());
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

  it("names every folder and top-level file of src/skills in the skill domain's row, and no other", () => {
    const row = /^\| Skill domain \| `src\/skills\/` \|(.*)$/m.exec(DOC);
    expect(row).not.toBeNull();
    const entries = readdirSync(join(ROOT, "src/skills"), { withFileTypes: true });
    const folders = [...row![1]!.matchAll(/`([\w-]+)\/`/g)].map((match) => match[1]!);
    expect(folders.sort()).toEqual(
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    );
    const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    for (const file of files) expect(row![1], file).toContain(`\`${file}\``);
  });

  it("quotes the plugin contract's refusals as the kernel words them", async () => {
    const refusal = async (plugin: unknown) => {
      const booted = createKernel({ config: { plugins: [plugin as Plugin] }, logger: createLogger("silent") });
      return (
        (await booted.then(
          () => undefined,
          (error: unknown) => error,
        )) as Error
      ).message;
    };
    const quoted = (start: string) => new RegExp(`\`(${start}[^\`]*)\``).exec(DOC)![1]!;
    expect(await refusal({ name: "x", version: 3, setup() {} })).toContain(quoted('plugin "x": version must'));
    expect(await refusal({ name: "x", setup() {}, serve() {} })).toContain(quoted('plugin "x": serve on'));
    expect(await refusal({ name: "x", version: "3.1.0", kernel: ">=9", setup() {} })).toContain(
      quoted('plugin "x" 3.1.0').replace("0.1.0;", `${VERSION};`),
    );
  });
});
