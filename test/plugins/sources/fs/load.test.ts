import { rename, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const KiB = 1024;

async function sourceOver(root: string, extra: Record<string, unknown> = {}) {
  const { sources } = await setupFs({ roots: [root], watch: false, ...extra }, root);
  const source = sources[0]!;
  return () => source.load(new AbortController().signal);
}

describe("loading skill files", () => {
  it("reads a frontmatter that closes far beyond the first read, and the excerpt after it", async () => {
    const root = await tempDir();
    const filler = Array.from({ length: 600 }, (_, i) => `  key${i}: ${"v".repeat(20)}`).join("\n");
    await writeSkillFile(
      root,
      "long",
      `---\nname: long\ndescription: Long.\nmetadata:\n${filler}\n---\n# Body\n${"word ".repeat(2000)}`,
    );
    const [skill] = (await (await sourceOver(root))()).skills;
    expect(skill).toMatchObject({ name: "long", description: "Long." });
    expect(Object.keys(skill!.frontmatter.metadata as object)).toHaveLength(600);
    expect(skill!.excerpt.startsWith("# Body\nword word")).toBe(true);
  });

  it("takes the excerpt whole from a short file and a long one alike", async () => {
    const root = await tempDir();
    const body = `# Title\n${"é".repeat(5000)}`;
    await writeSkillFile(root, "accented", `---\nname: accented\ndescription: Accents.\n---\n${body}`);
    const [skill] = (await (await sourceOver(root))()).skills;
    // 2-byte characters cut nowhere inside the excerpt, however the head was read.
    expect(skill!.excerpt).toBe(body.slice(0, 2000));
  });

  it("reads a SKILL.md again when it was rewritten with the same size and times", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const load = await sourceOver(root);
    expect((await load()).skills[0]!.description).toBe("Before.");
    const stamp = new Date("2026-01-01T00:00:00Z");
    await utimes(file, stamp, stamp);
    await load();
    await writeFile(file, skillMd("alpha", "After!."));
    await utimes(file, stamp, stamp);
    // Same size, same mtime: the change of ctime gives it away.
    expect((await load()).skills[0]!.description).toBe("After!.");
  });

  it("reads a SKILL.md again when another file was renamed over it", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Before."));
    const load = await sourceOver(root);
    await load();
    await writeFile(join(root, "alpha", "next.md"), skillMd("alpha", "After."));
    await rename(join(root, "alpha", "next.md"), file);
    expect((await load()).skills[0]!.description).toBe("After.");
  });

  it("reads a SKILL.md replaced by a symlink through the link's checks", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeFile(join(root, "secret.md"), skillMd("alpha", "Outside."));
    const load = await sourceOver(root);
    expect((await load()).skills).toHaveLength(1);
    await rename(file, join(root, "alpha", "old.md"));
    await symlink(join(root, "secret.md"), file);
    const snapshot = await load();
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual(["outside-skill"]);
  });

  it("reads at most maxSkillFileBytes", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "big", `---\nname: big\ndescription: ${"d".repeat(20 * KiB)}\n---\n`);
    const snapshot = await (await sourceOver(root, { maxSkillFileBytes: 16 * KiB }))();
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual(["frontmatter-too-large"]);
  });
});
