import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { runCli } from "../helpers/cli.js";

/**
 * `add ARCHIVE` through dist/cli.js with archives a publisher got wrong (issue 47, item 7): two
 * skills of one name, a file name longer than a folder can hold, a file nested deeper than is
 * served. Each is refused or reported, never installed silently one over the other or dropped.
 */
const encode = (text: string) => new TextEncoder().encode(text);
const skillMd = (name: string, description = `The ${name} skill.`) =>
  encode(`---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);

let base: string;
let project: string;
let run = 0;

/** `add` of an archive of `entries`: a .tar.gz, or a .zip for paths longer than a tar header holds. */
async function addArchive(entries: { path: string; bytes: Uint8Array }[], args: string[] = [], zip = false) {
  run += 1;
  project = join(base, `project-${run}`);
  await mkdir(join(project, ".git"), { recursive: true });
  const archive = join(base, `archive-${run}.${zip ? "zip" : "tar.gz"}`);
  await writeFile(
    archive,
    zip ? zipSync(Object.fromEntries(entries.map(({ path, bytes }) => [path, bytes]))) : await packTarGz(entries),
  );
  return runCli(["add", archive, "--agent", "claude-code", "--copy", ...args], {
    cwd: project,
    env: { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache") },
  });
}

const installed = async () => (await readdir(join(project, ".claude"), { recursive: true }).catch(() => [])).sort();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-archive-edges-"));
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe("add from an archive", () => {
  it("refuses two skills of one name, naming both, and installs neither", async () => {
    const result = await addArchive([
      { path: "team/pdf/SKILL.md", bytes: skillMd("pdf", "The team's PDF skill.") },
      { path: "vendor/pdf/SKILL.md", bytes: skillMd("pdf", "The vendor's PDF skill.") },
      { path: "docx/SKILL.md", bytes: skillMd("docx") },
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /refusing to add from \S+: 2 of its skills would be installed as "pdf" \(at "team\/pdf", "vendor\/pdf"\), one over the other; nothing is added/,
    );
    expect(await installed()).toEqual([]);
  });

  it("refuses the same when the one name is asked for with --skill", async () => {
    const result = await addArchive(
      [
        { path: "team/pdf/SKILL.md", bytes: skillMd("pdf") },
        { path: "vendor/pdf/SKILL.md", bytes: skillMd("pdf") },
      ],
      ["--skill", "pdf"],
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('would be installed as "pdf"');
    expect(await installed()).toEqual([]);
  });

  it("leaves out a file whose name no folder can hold, with its reason, and adds the rest", async () => {
    const long = `${"n".repeat(296)}.md`;
    const result = await addArchive(
      [
        { path: "SKILL.md", bytes: skillMd("notes") },
        { path: "ok.md", bytes: encode("ok\n") },
        { path: `references/${long}`, bytes: encode("x\n") },
      ],
      ["--verbose"],
      true,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/ENAMETOOLONG|\.installing-/);
    expect(result.stdout).toContain(
      `warning: references/${long} is left out: a file or folder name in its path is longer than 255 bytes, more than most file systems hold`,
    );
    expect(await installed()).toEqual(["skills", "skills/notes", "skills/notes/SKILL.md", "skills/notes/ok.md"]);
  });

  it("notes a file nested deeper than is served instead of dropping it silently", async () => {
    const deep = Array.from({ length: 200 }, () => "d").join("/");
    const result = await addArchive(
      [
        { path: "SKILL.md", bytes: skillMd("nested") },
        { path: `${deep}/deep.md`, bytes: encode("x\n") },
      ],
      ["--verbose"],
      true,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`warning: ${deep}/deep.md is left out: the path is more than 8 folders deep`);
    expect(await installed()).toEqual(["skills", "skills/nested", "skills/nested/SKILL.md"]);
  });
});
