import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/** `--skills-archive` through dist/cli.js: a local .tar.gz of skill folders, a remote .zip, a refused archive. */
const encode = (text: string) => new TextEncoder().encode(text);
const skillMd = (name: string) => encode(`---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`);

describe("--skills-archive serves the skills in a .tar.gz or .zip", () => {
  let base: string;
  let server: FixtureServer;
  const run = (args: string[]) =>
    runCli(args, { cwd: base, env: { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache") } });

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-archive-e2e-"));
    await writeFile(
      join(base, "team.tar.gz"),
      await packTarGz([
        { path: "pdf/SKILL.md", bytes: skillMd("pdf") },
        { path: "pdf/references/guide.md", bytes: encode("# Guide\n") },
        { path: "docx/SKILL.md", bytes: skillMd("docx") },
      ]),
    );
    await writeFile(
      join(base, "evil.zip"),
      zipSync({ "SKILL.md": skillMd("evil"), "../escape.sh": encode("echo out\n") }),
    );
    server = await startFixtureServer({
      "/notes.zip": { body: zipSync({ "SKILL.md": skillMd("notes") }), headers: { "content-type": "application/zip" } },
    });
  });

  afterAll(async () => {
    await server?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("lists and reads the skills of a local archive and a remote one", async () => {
    const listed = await run([
      "list",
      "--skills-archive",
      "team.tar.gz",
      "--skills-archive",
      `${server.url}/notes.zip`,
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split("\n").sort()).toEqual(["docx", "notes", "pdf"]);
    const read = await run(["read", "pdf", "--json", "--skills-archive", "team.tar.gz"]);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ qualified_id: "team:pdf", files: ["references/guide.md"] });
  });

  it("refuses a hostile archive in one line naming it, and serves the others", async () => {
    const listed = await run(["list", "--skills-archive", "evil.zip", "--skills-archive", "team.tar.gz"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split("\n").sort()).toEqual(["docx", "pdf"]);
    const lines = listed.stderr.split("\n").filter((line) => line.includes("evil"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /source "evil" failed to load: refused: .*evil\.zip: (is not a readable zip archive|entry "\.\.\/escape\.sh")/,
    );
  });
});
