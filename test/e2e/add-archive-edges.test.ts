import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

async function addArchive(entries: { path: string; bytes: Uint8Array }[], args: string[] = []) {
  run += 1;
  project = join(base, `project-${run}`);
  await mkdir(join(project, ".git"), { recursive: true });
  const archive = join(base, `archive-${run}.tar.gz`);
  await writeFile(archive, await packTarGz(entries));
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
});
