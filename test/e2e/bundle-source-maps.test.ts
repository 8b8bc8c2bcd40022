import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

/**
 * The bundle's source maps carry every source they name: an installed skills-kernel has no src/
 * and no node_modules of its own, so a source without its content is a file no install has, and
 * vitest in a plugin package warns "Sourcemap for … points to missing source files" about it.
 */
describe("dist/*.js.map", () => {
  const dist = join(REPO_ROOT, "dist");
  const maps = readdirSync(dist).filter((file) => file.endsWith(".js.map"));

  it("exist", () => {
    expect(maps.length).toBeGreaterThan(10);
  });

  it("hold the content of every source they name", () => {
    const missing = maps.flatMap((file) => {
      const map = JSON.parse(readFileSync(join(dist, file), "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      return map.sources
        .filter((_, index) => typeof map.sourcesContent?.[index] !== "string")
        .map((source) => `${file}: ${source}`);
    });
    expect(missing).toEqual([]);
  });
});
