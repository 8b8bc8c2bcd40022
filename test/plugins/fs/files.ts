import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const created: string[] = [];

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder in the OS temp dir, removed after the current test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skills-kernel-fs-"));
  created.push(dir);
  return dir;
}

/** Writes `<root>/<folder>/<file>`, creating folders on the way. */
export async function writeSkillFile(root: string, folder: string, content: string, file = "SKILL.md"): Promise<string> {
  await mkdir(join(root, folder), { recursive: true });
  const path = join(root, folder, file);
  await writeFile(path, content);
  return path;
}

/** A minimal valid SKILL.md whose name matches its folder. */
export function skillMd(name: string, description = `The ${name} skill.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
}
