import { execFileSync } from "node:child_process";
import { mkdir, open, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NotRegularFileError } from "../../src/lib/regular-file.js";
import { ASYNC_CALLS, BLOCKING_CALLS } from "../../src/skills/files/file-calls.js";
import { OutsideFolderError, readHead, readHeadInPlace } from "../../src/skills/files/read-head.js";
import { tempDir } from "../plugins/sources/fs/files.js";

const KiB = 1024;

/** Every check holds whichever calls make the reads: fs/promises' or the blocking ones. */
describe.each([
  ["fs/promises' calls", ASYNC_CALLS],
  ["blocking calls", BLOCKING_CALLS],
])("with %s", (_calls, calls) => {
  describe("readHead", () => {
    it("reads a small file whole", async () => {
      const file = join(await tempDir(), "SKILL.md");
      await writeFile(file, "---\nname: x\n---\n");
      const head = await readHead(file, 256 * KiB, undefined, calls);
      expect(head.bytes.toString("utf8")).toBe("---\nname: x\n---\n");
      expect(head.truncated).toBe(false);
    });

    it("reads an empty file", async () => {
      const file = join(await tempDir(), "SKILL.md");
      await writeFile(file, "");
      expect(await readHead(file, 256 * KiB, undefined, calls)).toMatchObject({
        bytes: Buffer.alloc(0),
        truncated: false,
      });
    });

    it("reads only the head of a 50 MB file", async () => {
      const file = join(await tempDir(), "SKILL.md");
      const handle = await open(file, "w");
      await handle.writeFile("---\nname: big\ndescription: Big.\n---\n");
      await handle.truncate(50 * 1024 * KiB);
      await handle.close();

      const head = await readHead(file, 256 * KiB, undefined, calls);
      expect(head.bytes.length).toBe(256 * KiB);
      expect(head.truncated).toBe(true);
      expect(head.bytes.subarray(0, 3).toString()).toBe("---");
    });

    it("refuses a FIFO without blocking on it", async () => {
      const fifo = join(await tempDir(), "SKILL.md");
      execFileSync("mkfifo", [fifo]);
      const error = await readHead(fifo, 256 * KiB, undefined, calls).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotRegularFileError);
      expect((error as Error).message).toMatch(/FIFO/);
    });

    it("refuses a folder", async () => {
      await expect(readHead(await tempDir(), 256 * KiB, undefined, calls)).rejects.toThrow(
        /not a regular file but a folder/,
      );
    });

    it("checks, with a folder to stay in, where the file it opened really is", async () => {
      const dir = await realpath(await tempDir());
      await mkdir(join(dir, "skill"));
      await writeFile(join(dir, "skill", "SKILL.md"), "inside");
      await writeFile(join(dir, "secret.txt"), "outside");
      await symlink(join(dir, "secret.txt"), join(dir, "skill", "link.md"));
      expect((await readHead(join(dir, "skill", "SKILL.md"), KiB, join(dir, "skill"), calls)).bytes.toString()).toBe(
        "inside",
      );
      // What a folder swapped for a symlink between the caller's check and the open amounts to.
      await expect(readHead(join(dir, "skill", "link.md"), KiB, join(dir, "skill"), calls)).rejects.toBeInstanceOf(
        OutsideFolderError,
      );
    });
  });

  describe("readHeadInPlace", () => {
    it("reads a plain file, and leaves links, FIFOs and linked folders to the full checks", async () => {
      const dir = await realpath(await tempDir());
      const skill = join(dir, "skill");
      await mkdir(join(skill, "real"), { recursive: true });
      await writeFile(join(skill, "real", "a.md"), "inside");
      await writeFile(join(dir, "secret.txt"), "outside");
      await symlink(join(dir, "secret.txt"), join(skill, "out.md"));
      await symlink(join(skill, "real", "a.md"), join(skill, "in.md"));
      await symlink(join(skill, "real"), join(skill, "linked"));
      execFileSync("mkfifo", [join(skill, "fifo")]);
      const head = await readHeadInPlace(join(skill, "real", "a.md"), 3, skill, calls);
      expect(head).toMatchObject({ truncated: true, size: 6 });
      expect(head?.bytes.toString()).toBe("ins");
      for (const name of ["out.md", "in.md", join("linked", "a.md"), "fifo", "missing.md", "real"])
        expect(await readHeadInPlace(join(skill, name), 256, skill, calls)).toBeUndefined();
      // Not inside the folder it must stay in.
      expect(await readHeadInPlace(join(dir, "secret.txt"), 256, skill, calls)).toBeUndefined();
    });
  });
});
