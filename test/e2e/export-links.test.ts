import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/**
 * `export DIR --out SITE` through the bundle (issue 47, item 1): it never writes or deletes
 * through a link, and removes only files a previous export recorded writing.
 */
const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`;
const LINK_REFUSAL =
  /^skills-kernel: refusing to export into (\S+): it is a symbolic link, and export never writes or deletes through one/;

let base: string;
let skills: string;
let site: string;
let victim: string;
let run = 0;

const listing = async (dir: string) => (await readdir(dir, { recursive: true })).sort();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-export-links-"));
  skills = join(base, "skills");
  for (const name of ["alpha", "beta"]) {
    await mkdir(join(skills, name), { recursive: true });
    await writeFile(join(skills, name, "SKILL.md"), skillMd(name));
  }
});

beforeEach(async () => {
  run += 1;
  site = join(base, `site-${run}`);
  // A folder of the user's, with a file named like one export writes.
  victim = join(base, `victim-${run}`);
  await mkdir(join(victim, "alpha"), { recursive: true });
  await writeFile(join(victim, "index.json"), "mine\n");
  await writeFile(join(victim, "alpha/SKILL.md"), "mine\n");
  await writeFile(join(victim, "notes.txt"), "mine\n");
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

async function expectVictimUntouched(): Promise<void> {
  expect(await listing(victim)).toEqual(["alpha", "alpha/SKILL.md", "index.json", "notes.txt"]);
  for (const file of ["index.json", "alpha/SKILL.md", "notes.txt"])
    expect(await readFile(join(victim, file), "utf8")).toBe("mine\n");
}

describe("export refuses links on the way", () => {
  it.each([
    ["SITE", ""],
    [".well-known", ".well-known"],
    ["agent-skills", ".well-known/agent-skills"],
  ])("a linked %s: one line, exit 1, nothing written or deleted behind it", async (_name, linked) => {
    const link = join(site, linked);
    await mkdir(join(link, ".."), { recursive: true });
    await rm(link, { recursive: true, force: true });
    await symlink(victim, link);
    const result = await runCli(["export", skills, "--out", site]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(LINK_REFUSAL.exec(result.stderr)?.[1]).toBe(link);
    expect(result.stdout).toBe("");
    await expectVictimUntouched();
  });

  it("an index.json that links to a file of the user's is refused, the file unchanged", async () => {
    await mkdir(join(site, ".well-known/agent-skills"), { recursive: true });
    await symlink(join(victim, "index.json"), join(site, ".well-known/agent-skills/index.json"));
    const result = await runCli(["export", skills, "--out", site]);
    expect(result.code).toBe(1);
    expect(LINK_REFUSAL.exec(result.stderr)?.[1]).toBe(join(site, ".well-known/agent-skills/index.json"));
    await expectVictimUntouched();
  });

  it("a link in place of a skill folder gets a one-line refusal, not an internal error", async () => {
    await mkdir(join(site, ".well-known/agent-skills"), { recursive: true });
    await symlink(join(victim, "alpha"), join(site, ".well-known/agent-skills/alpha"));
    const result = await runCli(["export", skills, "--out", site]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error|EEXIST/);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(LINK_REFUSAL.exec(result.stderr)?.[1]).toBe(join(site, ".well-known/agent-skills/alpha"));
    await expectVictimUntouched();
  });

  it("a folder where export keeps a file is refused, not written into", async () => {
    await mkdir(join(site, ".well-known/agent-skills/index.json"), { recursive: true });
    const result = await runCli(["export", skills, "--out", site]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to export into \S+index\.json: it is a folder, where export keeps a file/);
  });
});

describe("export removes only what an export wrote", () => {
  it("keeps the user's files in the output, reports them, and removes a skill's files once it is gone", async () => {
    const root = join(site, ".well-known/agent-skills");
    await mkdir(root, { recursive: true });
    await writeFile(join(root, "README.md"), "user's\n");
    await writeFile(join(root, "keep.txt"), "user's\n");
    const first = await runCli(["export", skills, "--out", site]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("(3 files written, 0 removed, 0 unchanged)");
    expect(first.stderr).toContain(
      `left alone 2 files under ${root} that no export recorded writing: README.md, keep.txt`,
    );

    const fewer = join(base, `fewer-${run}`);
    await mkdir(join(fewer, "alpha"), { recursive: true });
    await writeFile(join(fewer, "alpha/SKILL.md"), skillMd("alpha"));
    const second = await runCli(["export", fewer, "--out", site]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("(1 files written, 1 removed, 1 unchanged)");
    expect(await listing(root)).toEqual([
      ".skills-kernel-export.json",
      "README.md",
      "alpha",
      "alpha/SKILL.md",
      "index.json",
      "keep.txt",
    ]);
    expect(await readFile(join(root, "README.md"), "utf8")).toBe("user's\n");
  });

  it("a record naming paths outside the site removes nothing", async () => {
    const root = join(site, ".well-known/agent-skills");
    await mkdir(root, { recursive: true });
    await writeFile(
      join(root, ".skills-kernel-export.json"),
      JSON.stringify({ files: [`../../../victim-${run}/notes.txt`, "index.json"] }),
    );
    const result = await runCli(["export", skills, "--out", site]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/is not an export's record of its files; no file is removed/);
    expect(result.stdout).toContain("0 removed");
    await expectVictimUntouched();
  });
});
