import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { runCli } from "../helpers/cli.js";

/**
 * File, folder and lock names with a bidirectional override (U+202E) or a character that looks
 * like a separator (U+2215 division slash, U+2044 fraction slash), through `add` and `restore` in
 * dist/cli.js (issue 47, item 7): no such name reaches the disk or the lock.
 */
const RLO = "\u202e";
const DIVISION_SLASH = "\u2215";
const FRACTION_SLASH = "\u2044";
const encode = (text: string) => new TextEncoder().encode(text);
const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`;

let base: string;
let project: string;
let run = 0;
const cli = (args: string[]) =>
  runCli(args, { cwd: project, env: { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache") } });

/** Every path under the project's .claude, or [] when nothing was written there. */
const installed = async () => (await readdir(join(project, ".claude"), { recursive: true }).catch(() => [])).sort();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-hostile-names-"));
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

async function freshProject(): Promise<void> {
  run += 1;
  project = join(base, `project-${run}`);
  await mkdir(join(project, ".git"), { recursive: true });
}

describe("names that read as something they are not", () => {
  it("add from a folder leaves such files out, each with its reason", async () => {
    await freshProject();
    const skills = join(base, "skills");
    await mkdir(join(skills, "good"), { recursive: true });
    await writeFile(join(skills, "good/SKILL.md"), skillMd("good"));
    await writeFile(join(skills, "good/notes.md"), "fine\n");
    await writeFile(join(skills, `good/invoice${RLO}fdp.exe`), "x\n");
    await writeFile(join(skills, `good/a${DIVISION_SLASH}..${DIVISION_SLASH}b.md`), "x\n");
    const result = await cli(["add", skills, "--agent", "claude-code", "--copy", "--verbose"]);
    expect(result.code, result.stderr).toBe(0);
    expect(await installed()).toEqual(["skills", "skills/good", "skills/good/SKILL.md", "skills/good/notes.md"]);
    expect(result.stdout).toContain(
      "warning: invoice\\u202efdp.exe is left out: the path holds an invisible or bidirectional formatting character",
    );
    expect(result.stdout).toContain(
      `warning: a${DIVISION_SLASH}..${DIVISION_SLASH}b.md is left out: the path holds a character that looks like '/' or '\\' but is none`,
    );
    const lock = JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8")) as {
      skills: Record<string, { files: Record<string, string> }>;
    };
    expect(Object.keys(lock.skills.good!.files).sort()).toEqual(["SKILL.md", "notes.md"]);
  });

  it.each([
    ["a file", `pdf/report${RLO}fdp.sh`, /invisible or bidirectional formatting character/],
    ["a skill folder", `team${FRACTION_SLASH}pdf/SKILL.md`, /looks like '\/' or '\\' but is none/],
  ])("add refuses an archive with such a name in %s, writing nothing", async (_where, path, why) => {
    await freshProject();
    const archive = join(base, `names-${run}.tar.gz`);
    const folder = path.split("/")[0]!;
    await writeFile(
      archive,
      await packTarGz([
        { path: `${folder}/SKILL.md`, bytes: encode(skillMd("pdf")) },
        { path, bytes: encode("x\n") },
      ]),
    );
    const result = await cli(["add", archive, "--agent", "claude-code", "--copy"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(why);
    expect(await installed()).toEqual([]);
  });

  it.each([
    ["a bidirectional override", `x${RLO}gpj.exe`, "x\\u202egpj.exe"],
    ["a division slash", `..${DIVISION_SLASH}..${DIVISION_SLASH}evil`, `..${DIVISION_SLASH}..${DIVISION_SLASH}evil`],
  ])("restore refuses a lock name holding %s and makes no folder", async (_what, name, shown) => {
    await freshProject();
    const lock = {
      version: 1,
      skills: {
        [name]: {
          source: "../skills",
          sourceType: "local",
          skillPath: "good/SKILL.md",
          agents: ["claude-code"],
          computedHash: "0".repeat(64),
          files: { "SKILL.md": `sha256:${"0".repeat(64)}` },
        },
      },
    };
    await writeFile(join(project, "skills-lock.json"), JSON.stringify(lock));
    const result = await cli(["restore"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`skill "${shown}": the name is not a plain folder name`);
    expect(await installed()).toEqual([]);
    expect(await readdir(project)).toEqual([".git", "skills-lock.json"]);
  });
});
