import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README's first lines: the two commands that set up a fresh machine, what the second costs
 * beside it, and the unit suite alone, as package.json runs it.
 */
const ROOT = join(import.meta.dirname, "../..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };

describe("README's first lines", () => {
  it("give the two commands first, the second's cost and the unit suite right after", () => {
    const [, block, after] = /^# skills-kernel\n\n```sh\n([\s\S]*?)```\n\n([\s\S]*?)\n\n/.exec(readme)!;
    expect(
      block!
        .split("\n")
        .filter(Boolean)
        .map((line) => line.replace(/\s+#.*$/, "")),
    ).toEqual(["npm ci && npx skills-kernel --skills-dir examples/skills", "npm ci && npm test"]);
    const text = after!.replace(/\s+/g, " ");
    expect(text).toMatch(/^The second takes 10 to 15 minutes and about 2 GB of disk on 2 cores/);
    expect(text).toContain("`npm ci && npm run test:unit` runs the unit tests alone");
    expect(pkg.scripts["test:unit"]).toBe("vitest run --project unit");
    expect(pkg.scripts.test).toMatch(/^npm run pretest:e2e && vitest run$/);
  });
});
