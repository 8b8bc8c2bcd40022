import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installSkill } from "../../../../src/lifecycle/install.js";
import { CORPORA, readManifest } from "../../../helpers/corpus.js";
import { tempDir } from "../../sources/fs/files.js";
import { boot } from "../validate-skill/kernel.js";

// #13: install refused 90 of the 700 real skills of ../shared/corpus (an unquoted date in
// metadata, a name with capitals or spaces). Every skill that loads must install now, unless
// its name is unsafe as a folder name; spec problems are warnings.
describe.each(CORPORA)("installing every skill of $label", (corpus) => {
  it.skipIf(!corpus.present)(
    corpus.title("installs each served skill (dry run), refusing none for a spec problem"),
    async () => {
      const base = await tempDir();
      const { kernel } = await boot([["fs", { roots: [corpus.dir] }]], base);
      await kernel.catalog.ready();
      const skills = kernel.catalog.list();
      expect(skills.length).toBeGreaterThan(readManifest(corpus).length * 0.9);
      const refused: string[] = [];
      let warned = 0;
      for (const skill of skills) {
        const request = { skill: skill.qualifiedId, targetRoot: join(base, "target"), overwrite: false, dryRun: true };
        try {
          const result = await installSkill(kernel.catalog, { maxFiles: 5_000, maxBytes: 100 * 1024 * 1024 }, request);
          if (result.warnings.some((warning) => warning.startsWith("spec: "))) warned++;
        } catch (error) {
          refused.push(`${skill.qualifiedId}: ${(error as Error).message}`);
        }
      }
      // What is still refused is refused as unsafe or too large, never for the spec.
      for (const reason of refused) expect(reason).not.toMatch(/breaks the Agent Skills spec/);
      expect(refused.length).toBeLessThan(skills.length / 100);
      expect(warned).toBeGreaterThan(0);
    },
  );
});
