import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without declarations
import { apiReportDifferences } from "../../scripts/api-report.mjs";

const ROOT = join(import.meta.dirname, "../..");

describe("the API reports (etc/*.api.md)", () => {
  it("match the public surface the built declarations describe, and a stale one is named", async () => {
    expect(apiReportDifferences()).toEqual([]);
    const stale = await mkdtemp(join(tmpdir(), "api-report-"));
    try {
      await cp(join(ROOT, "etc"), stale, { recursive: true });
      const testing = join(stale, "skills-kernel-testing.api.md");
      await writeFile(testing, (await readFile(testing, "utf8")).replace(/^export function memorySource.*$/m, ""));
      expect(apiReportDifferences(stale).map((path: string) => path.split("/").pop())).toEqual([
        "skills-kernel-testing.api.md",
      ]);
    } finally {
      await rm(stale, { recursive: true, force: true });
    }
  });

  // The reports match the surface (above), so a member without TSDoc shows as "(undocumented)" here.
  it("document every public member", async () => {
    for (const report of ["skills-kernel.api.md", "skills-kernel-testing.api.md"]) {
      const lines = (await readFile(join(ROOT, "etc", report), "utf8")).split("\n");
      const undocumented = lines.flatMap((line, i) => (line.includes("(undocumented)") ? [lines[i + 1]!.trim()] : []));
      expect(undocumented, report).toEqual([]);
    }
  });
});
