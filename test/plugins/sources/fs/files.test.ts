import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, open, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillFileError } from "../../../../src/kernel/errors.js";
import type { CatalogSource } from "../../../../src/skills/types.js";
import { MAX_FILE_DEPTH, MAX_LISTED_ENTRIES } from "../../../../src/skills/files/folder-rules.js";
import { createHostileRoot } from "../../../fixtures/hostile-root.js";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const MiB = 1024 * 1024;

/** Sets the plugin up over `roots`, loads its only source once, and returns it. */
async function loadedSource(roots: unknown[], baseDir: string, inProcessOnly: boolean): Promise<CatalogSource> {
  const { sources } = await setupFs({ roots }, baseDir, inProcessOnly);
  await sources[0]!.load(new AbortController().signal);
  return sources[0]!;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SkillFileError);
  return (error as SkillFileError).reason;
}

/**
 * Every check holds whichever calls the source makes: fs/promises' in a served kernel, the
 * blocking ones in a kernel that serves nothing (PluginRuntimeContext.inProcessOnly).
 */
describe.each([
  ["in a served kernel", false],
  ["in a kernel that serves nothing", true],
])("%s", (_kernel, inProcessOnly) => {
  describe("listing a skill's files", () => {
    it("lists every file but SKILL.md: recursive, sorted, POSIX paths, with sizes", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "pdf", skillMd("pdf"));
      await writeSkillFile(root, "pdf/references", "forms", "forms.md");
      await writeSkillFile(root, "pdf/references/deep", "x", "notes.txt");
      await writeSkillFile(root, "pdf/scripts", "print(1)\n", "fill.py");
      await writeSkillFile(root, "pdf", "top", "README.md");
      // A nested skill is a file of its parent like any other.
      await writeSkillFile(root, "pdf/references/helper", skillMd("helper"));

      const source = await loadedSource([root], root, inProcessOnly);
      const listing = await source.listFiles("pdf", 100);
      expect(listing).toEqual({
        files: [
          { path: "README.md", size: 3, mtimeMs: expect.any(Number) },
          { path: "references/deep/notes.txt", size: 1, mtimeMs: expect.any(Number) },
          { path: "references/forms.md", size: 5, mtimeMs: expect.any(Number) },
          { path: "references/helper/SKILL.md", size: skillMd("helper").length, mtimeMs: expect.any(Number) },
          { path: "scripts/fill.py", size: 9, mtimeMs: expect.any(Number) },
        ],
        omitted: 0,
        complete: true,
      });
      // The file's own modification time, which tells one version of it from the next.
      expect(listing.files[0]!.mtimeMs).toBe((await stat(join(root, "pdf", "README.md"))).mtimeMs);
      expect(source.capabilities?.localFolders).toEqual([root]);
    });

    it("leaves out what may not be served: FIFOs, node_modules, .git, links outside or to folders", async () => {
      const work = await tempDir();
      const root = join(work, "root");
      await writeSkillFile(root, "s", skillMd("s"));
      await writeSkillFile(root, "s", "ok", "kept.md");
      await writeSkillFile(root, "s/node_modules/dep", "{}", "package.json");
      await writeSkillFile(root, "s/.git", "ref", "HEAD");
      await writeSkillFile(root, "s/.hidden", "shown", "config.md");
      execFileSync("mkfifo", [join(root, "s", "pipe")]);
      await writeFile(join(work, "secret.txt"), "secret");
      await symlink(join(work, "secret.txt"), join(root, "s", "outside.txt"));
      await symlink("kept.md", join(root, "s", "alias.md"));
      await symlink(join(root, "s", ".hidden"), join(root, "s", "linked-folder"));
      await symlink("missing.md", join(root, "s", "broken.md"));
      await writeSkillFile(root, "s", "back\\slash", "odd\\name.md");

      const source = await loadedSource([root], root, inProcessOnly);
      expect((await source.listFiles("s", 100)).files.map((file) => file.path)).toEqual([
        ".hidden/config.md",
        "alias.md",
        "kept.md",
      ]);
    });

    it("stops at the limit and counts the rest", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "s", skillMd("s"));
      for (let i = 0; i < 30; i++) await writeSkillFile(root, "s/refs", "", `f${String(i).padStart(2, "0")}.md`);

      const source = await loadedSource([root], root, inProcessOnly);
      const listing = await source.listFiles("s", 10);
      expect(listing.files.map((file) => file.path)).toEqual(
        Array.from({ length: 10 }, (_, i) => `refs/f${String(i).padStart(2, "0")}.md`),
      );
      expect(listing.omitted).toBe(20);
      expect(await source.listFiles("s", 0)).toEqual({ files: [], omitted: 30, complete: true });
    });

    it("does not descend past the depth limit", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "s", skillMd("s"));
      const deepest = Array.from({ length: MAX_FILE_DEPTH }, (_, i) => `d${i}`).join("/");
      await writeSkillFile(root, `s/${deepest}`, "in reach", "ok.md");
      await writeSkillFile(root, `s/${deepest}/too-deep`, "out of reach", "no.md");

      const source = await loadedSource([root], root, inProcessOnly);
      const listing = await source.listFiles("s", 100);
      expect(listing.files.map((file) => file.path)).toEqual([`${deepest}/ok.md`]);
      expect(listing.complete).toBe(false);
      expect(await refusal(source.readFile("s", `${deepest}/too-deep/no.md`, MiB))).toBe(
        `the path is more than ${MAX_FILE_DEPTH} folders deep`,
      );
    });

    it("refuses a skill its last load did not find", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "s", skillMd("s"));
      const source = await loadedSource([root], root, inProcessOnly);
      expect(await refusal(source.listFiles("nope", 10))).toMatch(/no skill at "nope"/);
      expect(await refusal(source.readDocument("nope", MiB))).toMatch(/no skill at "nope"/);
      expect(await refusal(source.readFile("nope", "x.md", MiB))).toMatch(/no skill at "nope"/);
    });
  });

  describe("a skill folder of 20,000 files, among other hostile ones", () => {
    let work: string;
    let source: CatalogSource;

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), "skills-kernel-files-"));
      const root = join(work, "hostile");
      await createHostileRoot(root);
      source = await loadedSource([root], root, inProcessOnly);
    });
    afterAll(async () => {
      await rm(work, { recursive: true, force: true });
    });

    it("lists a bounded number of entries, quickly, and counts the rest", async () => {
      const started = performance.now();
      const listing = await source.listFiles("many-files", 200);
      const elapsed = performance.now() - started;
      expect(listing.files).toHaveLength(200);
      expect(listing.files.every((file) => /^file-\d+\.txt$/.test(file.path) && file.size === 0)).toBe(true);
      // The walk stopped at its bound: the rest it saw is counted (less SKILL.md if it was among
      // them: directory order decides), what it never read is not.
      expect(listing.omitted).toBeGreaterThanOrEqual(MAX_LISTED_ENTRIES - 1 - 200);
      expect(listing.omitted).toBeLessThanOrEqual(MAX_LISTED_ENTRIES - 200);
      expect(listing.complete).toBe(false);
      console.log(`listed 200 of a 20,000-file skill in ${elapsed.toFixed(0)} ms`);
    });

    it("serves nothing of a skill skipped at load", async () => {
      expect(await refusal(source.readDocument("canary-link", MiB))).toMatch(/no skill at "canary-link"/);
      expect(await refusal(source.readDocument("fifo-skill", MiB))).toMatch(/no skill at "fifo-skill"/);
    });

    it("reads only the head of a 50 MB SKILL.md", async () => {
      const document = await source.readDocument("large-file", 1024);
      expect(document).toMatchObject({ size: 50 * MiB, truncated: true });
      expect(document.bytes.length).toBe(1024);
    });
  });

  describe("reading a skill's files", () => {
    let work: string;
    let root: string;
    let source: CatalogSource;

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), "skills-kernel-read-"));
      root = join(work, "root");
      await writeSkillFile(root, "s", skillMd("s"));
      await writeSkillFile(root, "s/references", "hello", "hello.md");
      await writeSkillFile(root, "s/node_modules", "dep", "dep.js");
      await writeFile(join(work, "canary.txt"), "canary");
      await symlink(join(work, "canary.txt"), join(root, "s", "leak.txt"));
      await symlink(work, join(root, "s", "up"));
      await symlink("references/hello.md", join(root, "s", "alias.md"));
      execFileSync("mkfifo", [join(root, "s", "pipe")]);
      source = await loadedSource([root], root, inProcessOnly);
    });
    afterAll(async () => {
      await rm(work, { recursive: true, force: true });
    });

    it("reads a file whole, or its start with the whole size", async () => {
      expect(await source.readFile("s", "references/hello.md", MiB)).toEqual({
        bytes: Buffer.from("hello"),
        size: 5,
        truncated: false,
        mtimeMs: expect.any(Number),
      });
      expect(await source.readFile("s", "references/hello.md", 2)).toMatchObject({
        bytes: Buffer.from("he"),
        size: 5,
        truncated: true,
      });
      expect(await source.readFile("s", "alias.md", MiB)).toMatchObject({ size: 5 });
    });

    it.each([
      ["../canary.txt", "the path has a '..' segment; paths may not leave the skill folder"],
      [`/etc/passwd`, "the path is absolute; give it relative to the skill folder, as read_skill lists it"],
      ["leak.txt", "leads outside the skill folder"],
      ["up/canary.txt", "is inside a linked folder, whose files are not served"],
      // The same answer whether or not the file exists out there: nothing about the disk leaks.
      ["up/no-such-file.txt", "is inside a linked folder, whose files are not served"],
      ["pipe", "is not a regular file but a FIFO"],
      ["references", "is not a regular file but a folder"],
      ["missing.md", "no such file"],
      ["node_modules/dep.js", "files under node_modules or .git are not served"],
      ["references//hello.md", "the path has an empty segment (a leading, doubled or trailing '/')"],
    ])("refuses %s", async (path, reason) => {
      expect(await refusal(source.readFile("s", path, MiB))).toBe(reason);
    });

    it("refuses the absolute path of a file inside the skill too", async () => {
      expect(await refusal(source.readFile("s", join(root, "s", "references", "hello.md"), MiB))).toMatch(/absolute/);
    });

    it("never names the file's place on disk in a refusal", async () => {
      for (const path of ["leak.txt", "pipe", "missing.md", "up/canary.txt"]) {
        const error = await source.readFile("s", path, MiB).catch((caught: Error) => caught);
        expect((error as Error).message).not.toContain(work);
      }
    });
  });

  describe("SKILL.md after the load", () => {
    it("reads it, and refuses it once it has become a link outside or a FIFO", async () => {
      const work = await tempDir();
      const root = join(work, "root");
      await writeSkillFile(root, "s", skillMd("s"));
      await writeFile(join(work, "canary.md"), skillMd("canary"));
      const source = await loadedSource([root], root, inProcessOnly);
      expect(Buffer.from((await source.readDocument("s", MiB)).bytes).toString()).toBe(skillMd("s"));

      await unlink(join(root, "s", "SKILL.md"));
      await symlink(join(work, "canary.md"), join(root, "s", "SKILL.md"));
      expect(await refusal(source.readDocument("s", MiB))).toBe("leads outside the skill folder");

      await unlink(join(root, "s", "SKILL.md"));
      execFileSync("mkfifo", [join(root, "s", "SKILL.md")]);
      expect(await refusal(source.readDocument("s", MiB))).toBe("is not a regular file but a FIFO");
    });

    it("reads a lowercase skill.md and leaves it out of the files", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "s", skillMd("s"), "skill.md");
      await writeSkillFile(root, "s", "x", "other.md");
      const source = await loadedSource([root], root, inProcessOnly);
      expect((await source.readDocument("s", MiB)).size).toBe(skillMd("s").length);
      expect((await source.listFiles("s", 10)).files.map((file) => file.path)).toEqual(["other.md"]);
    });

    it("serves a symlinked skill folder from its target", async () => {
      const work = await tempDir();
      await writeSkillFile(work, "elsewhere/linked", skillMd("linked"));
      await writeSkillFile(work, "elsewhere/linked/references", "r", "r.md");
      await mkdir(join(work, "root"));
      await symlink(join(work, "elsewhere", "linked"), join(work, "root", "linked"));
      const source = await loadedSource([{ path: join(work, "root"), followLinksOut: true }], work, inProcessOnly);
      expect((await source.listFiles("linked", 10)).files.map((file) => file.path)).toEqual(["references/r.md"]);
      expect((await source.readFile("linked", "references/r.md", MiB)).size).toBe(1);
    });

    it("serves the first root's skill when two roots of one source hold the same path", async () => {
      const base = await tempDir();
      await writeSkillFile(base, "a/x", skillMd("x", "First."));
      await writeSkillFile(base, "b/x", skillMd("x", "Second."));
      const { sources } = await setupFs(
        {
          roots: [
            { path: "a", source: "s" },
            { path: "b", source: "s" },
          ],
        },
        base,
        inProcessOnly,
      );
      await sources[0]!.load(new AbortController().signal);
      expect(Buffer.from((await sources[0]!.readDocument("x", MiB)).bytes).toString()).toContain("First.");
    });

    it("reads only the start of a large file", async () => {
      const root = await tempDir();
      await writeSkillFile(root, "s", skillMd("s"));
      const handle = await open(join(root, "s", "big.bin"), "w");
      await handle.truncate(20 * MiB);
      await handle.close();
      const source = await loadedSource([root], root, inProcessOnly);
      const file = await source.readFile("s", "big.bin", 1024);
      expect(file).toMatchObject({ size: 20 * MiB, truncated: true });
      expect(file.bytes.length).toBe(1024);
    });
  });

  describe("a skill folder replaced after the load", () => {
    it("is neither listed nor read through the link that replaced it", async () => {
      const work = await tempDir();
      const root = join(work, "root");
      await writeSkillFile(root, "s", skillMd("s"));
      await writeSkillFile(work, "elsewhere", "private", "names.txt");
      const source = await loadedSource([root], root, inProcessOnly);
      await rm(join(root, "s"), { recursive: true });
      await symlink(join(work, "elsewhere"), join(root, "s"));
      expect(await refusal(source.listFiles("s", 10))).toBe("the skill folder has been replaced since the last scan");
      expect(await refusal(source.readFile("s", "names.txt", MiB))).toBe("leads outside the skill folder");
      expect(await refusal(source.readDocument("s", MiB))).toBe("no such file");
    });
  });
});
