import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/**
 * A skill's name labels the folder add stages it in: a 300-character name once stopped the whole
 * add with ENAMETOOLONG as an internal error. Now a name no folder can hold is refused in one
 * line and the other skills are added. The bundle, over a local folder of skills.
 */
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-long-names-"));
  const skills = join(base, "skills");
  const write = async (folder: string, name: string) => {
    await mkdir(join(skills, folder), { recursive: true });
    await writeFile(join(skills, folder, "SKILL.md"), `---\nname: ${name}\ndescription: A skill.\n---\n# ${folder}\n`);
  };
  await write("long", "a".repeat(300));
  // Nothing valid derives from either: the name itself would be the folder, 600 bytes long.
  await write("日日", "日".repeat(200));
  await write("fine", "fine");
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("add with very long skill names", () => {
  it("refuses a name no folder can hold, in one line, and adds the others", async () => {
    const project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    const result = await runCli(["add", join(base, "skills"), "--agent", "claude-code", "--log-level", "error"], {
      cwd: project,
      env: { HOME: join(base, "home"), CI: "1" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain("internal error");
    expect(result.stderr).not.toContain("ENAMETOOLONG");
    const lines = result.stderr.trim().split("\n");
    const warnings = lines.filter((line) => line.startsWith("skills-kernel: warning: "));
    expect(lines.filter((line) => !warnings.includes(line))).toEqual([
      expect.stringMatching(/^skills-kernel: refusing to install "日+\.\.\.": the name is longer than 200 bytes$/),
    ]);
    // It installs, and the check after add says no host loads a name the spec refuses.
    expect(warnings[0]).toMatch(/^skills-kernel: warning: claude-code will not load long: name: /);
    // The 300-character name installs under its folder's name, with the spec's warning.
    expect((await readdir(join(project, ".claude", "skills"))).sort()).toEqual(["fine", "long"]);
    expect(result.stdout).toContain("added fine");
    expect(result.stdout).toContain("added long");
  });
});
