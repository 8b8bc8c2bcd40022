// Writes a synthetic catalog to disk as skill folders (one SKILL.md each), so the load benchmarks
// read and parse real files as the fs source does.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import type { CatalogSkill } from "../src/skills/catalog/catalog-types.js";

/** One folder per skill under `root`, at its path; returns how many were written. */
export async function writeSkillFolders(root: string, skills: readonly CatalogSkill[]): Promise<number> {
  const batch = 64;
  for (let start = 0; start < skills.length; start += batch) {
    await Promise.all(
      skills.slice(start, start + batch).map(async (skill) => {
        const dir = join(root, skill.path);
        await mkdir(dir, { recursive: true });
        const frontmatter = stringify({ ...skill.frontmatter }, { lineWidth: 0 });
        await writeFile(join(dir, "SKILL.md"), `---\n${frontmatter}---\n\n${skill.excerpt}\n`);
      }),
    );
  }
  return skills.length;
}
