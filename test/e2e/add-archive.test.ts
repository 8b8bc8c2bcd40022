import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/**
 * `add ARCHIVE` through dist/cli.js: a local .tar.gz of two skills and a .zip and .tgz over HTTP
 * on loopback; the lock records the archive's digest, so outdated, update and restore follow it.
 */
const encode = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const skillMd = (name: string) => encode(`---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`);

describe("add takes a .tar.gz, .tgz or .zip of skills", () => {
  let base: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let server: FixtureServer;
  const run = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
  const lock = async () => JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));
  const installed = (name: string, file = "SKILL.md") =>
    readFile(join(project, ".claude", "skills", name, file), "utf8");

  /** Writes the team archive with `guide` as the pdf skill's one other file; returns its digest. */
  async function packTeam(guide: string): Promise<string> {
    const bytes = await packTarGz([
      { path: "skills/pdf/SKILL.md", bytes: skillMd("pdf") },
      { path: "skills/pdf/guide.md", bytes: encode(guide) },
      { path: "skills/docx/SKILL.md", bytes: skillMd("docx") },
    ]);
    await writeFile(join(project, "team.tar.gz"), bytes);
    return sha256(bytes);
  }

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-add-archive-"));
    project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
    await writeFile(
      join(project, "evil.zip"),
      zipSync({ "SKILL.md": skillMd("evil"), "../escape.sh": encode("echo out\n") }),
    );
    server = await startFixtureServer({
      "/dl/notes.zip": {
        body: zipSync({ "SKILL.md": skillMd("notes") }),
        headers: { "content-type": "application/zip" },
      },
      "/dl/memo.tgz": {
        body: await packTarGz([{ path: "SKILL.md", bytes: skillMd("memo") }]),
        headers: { "content-type": "application/gzip" },
      },
    });
  });

  afterAll(async () => {
    await server?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("adds every skill of a local archive and records the archive's digest", async () => {
    const digest = await packTeam("# one\n");
    const added = await run(["add", "./team.tar.gz", "--agent", "claude-code"]);
    expect(added.code, added.stderr).toBe(0);
    expect(await installed("pdf", "guide.md")).toBe("# one\n");
    expect(await installed("docx")).toContain("name: docx");
    const entries = (await lock()).skills;
    expect(entries.pdf).toMatchObject({
      source: "./team.tar.gz",
      sourceType: "archive",
      digest,
    });
    // npx skills cannot read an archive: no skillPath, so its check passes over the skill (npx-skills-check.test.ts).
    expect(entries.pdf.skillPath).toBeUndefined();
    expect(entries.pdf.sourceUrl).toBeUndefined();
    expect(entries.docx).toMatchObject({ source: "./team.tar.gz", sourceType: "archive", digest });
  });

  it("outdated and update follow the archive: a changed skill is updated, an unchanged one only records the new digest", async () => {
    const first = (await lock()).skills.pdf.digest as string;
    const unchanged = await run(["outdated", "--json"]);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(JSON.parse(unchanged.stdout)).toEqual([
      { name: "docx", status: "current", current: first, latest: first },
      { name: "pdf", status: "current", current: first, latest: first },
    ]);
    const second = await packTeam("# two\n");
    const outdated = await run(["outdated", "--json"]);
    expect(JSON.parse(outdated.stdout)).toEqual([
      { name: "docx", status: "current", current: first, latest: second },
      { name: "pdf", status: "outdated", current: first, latest: second },
    ]);
    const update = await run(["update"]);
    expect(update.code, update.stderr).toBe(0);
    expect(await installed("pdf", "guide.md")).toBe("# two\n");
    const entries = (await lock()).skills;
    expect(entries.pdf.digest).toBe(second);
    expect(entries.docx.digest).toBe(second);
  });

  it("restore brings a deleted skill back from the archive", async () => {
    await rm(join(project, ".agents", "skills", "pdf"), { recursive: true, force: true });
    await rm(join(project, ".claude", "skills", "pdf"), { recursive: true, force: true });
    const restored = await run(["restore"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await installed("pdf", "guide.md")).toBe("# two\n");
  });

  it("adds the skill at the root of a .zip and a .tgz over HTTP, recording their URLs", async () => {
    for (const [name, path] of [
      ["notes", "/dl/notes.zip"],
      ["memo", "/dl/memo.tgz"],
    ] as const) {
      const added = await run(["add", `${server.url}${path}`, "--agent", "claude-code"]);
      expect(added.code, added.stderr).toBe(0);
      expect(await installed(name)).toContain(`name: ${name}`);
      expect((await lock()).skills[name]).toMatchObject({
        source: `${server.url}${path}`,
        sourceType: "archive",
        sourceUrl: `${server.url}${path}`,
      });
    }
    const outdated = await run(["outdated", "--json"]);
    const rows = JSON.parse(outdated.stdout) as { name: string; status: string }[];
    expect(rows.filter((row) => row.name === "notes" || row.name === "memo").map((row) => row.status)).toEqual([
      "current",
      "current",
    ]);
  });

  it("refuses a hostile archive, naming it, and writes nothing", async () => {
    const added = await run(["add", "./evil.zip", "--agent", "claude-code"]);
    expect(added.code).toBe(1);
    expect(added.stderr).toMatch(
      /^skills-kernel: \.\/evil\.zip cannot be read: refused: .*evil\.zip: (is not a readable zip archive|entry "\.\.\/escape\.sh")/m,
    );
    expect(existsSync(join(project, ".agents", "skills", "evil"))).toBe(false);
    expect((await lock()).skills.evil).toBeUndefined();
  });

  it("says a missing archive file is not a file", async () => {
    const added = await run(["add", "./missing.tar.gz"]);
    expect(added.code).toBe(2);
    expect(added.stderr).toMatch(/missing\.tar\.gz is not a file/);
  });
});
