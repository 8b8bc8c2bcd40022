import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/kernel/errors.js";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { unpackSkillArchive } from "../../src/skills/archives/unpack.js";
import { manyEmptyEntries, tarGz } from "../fixtures/hostile-archives.js";

const SKILL = new TextEncoder().encode("---\nname: x\ndescription: y\n---\n");

const refusal = async (bytes: Uint8Array) => {
  try {
    await unpackSkillArchive(bytes, "evil.tar.gz");
  } catch (error) {
    expect((error as { code?: string }).code).toBe(ERROR_CODES.ARCHIVE_REFUSED);
    return (error as Error).message;
  }
  throw new Error("the archive was accepted");
};

describe("packTarGz", () => {
  it("gives the same bytes for the same files in any order, and reads back what it packed", async () => {
    const files = [
      { path: "scripts/run.sh", bytes: new TextEncoder().encode("echo hi\n") },
      { path: "SKILL.md", bytes: SKILL },
      { path: "references/deep/a.md", bytes: new Uint8Array([0, 255, 1]) },
    ];
    const first = await packTarGz(files);
    const second = await packTarGz([...files].reverse());
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const read = await unpackSkillArchive(first, "packed");
    expect(read.map((file) => file.path)).toEqual(["SKILL.md", "references/deep/a.md", "scripts/run.sh"]);
    expect(read[1]!.bytes).toEqual(new Uint8Array([0, 255, 1]));
  });
});

describe("unpackSkillArchive refuses hostile archives", () => {
  it("a .. entry, an absolute path, a link out, a hard link", async () => {
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "../escape.sh", body: SKILL },
        ]),
      ),
    ).toMatch(/'\.\.' segment/);
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "/etc/cron.d/x", body: SKILL },
        ]),
      ),
    ).toMatch(/absolute/);
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "notes", type: "symlink", linkname: "/etc/passwd" },
        ]),
      ),
    ).toMatch(/symlink -> \/etc\/passwd/);
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "notes", type: "link", linkname: "../../x" },
        ]),
      ),
    ).toMatch(/is a link/);
    // Zip: a Unix symlink entry (S_IFLNK in the external attributes).
    const zip = zipSync({
      "SKILL.md": SKILL,
      notes: [new TextEncoder().encode("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    });
    expect(await refusal(zip)).toMatch(/link or special file/);
    expect(await refusal(zipSync({ "SKILL.md": SKILL, "../x": SKILL }))).toMatch(
      /not a readable zip archive|'\.\.' segment/,
    );
  });

  it("a bomb: over the byte limit, or over the ratio", async () => {
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "big", body: new Uint8Array(17 * 1024 * 1024) },
        ]),
      ),
    ).toMatch(/unpacks to more than/);
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "zeros", body: new Uint8Array(8 * 1024 * 1024) },
        ]),
      ),
    ).toMatch(/times its own size/);
    expect(await refusal(zipSync({ "SKILL.md": SKILL, zeros: new Uint8Array(8 * 1024 * 1024) }, { level: 9 }))).toMatch(
      /times its own size/,
    );
  });

  it("100,000 entries, tar and zip", async () => {
    // One empty file's 512-byte header, 100,000 times: refused unread, its tar being larger than the byte limit allows.
    expect(await refusal(await manyEmptyEntries(SKILL, 100_000))).toMatch(
      /more than 1024 entries|unpacks to more than/,
    );
    // Fewer, within the byte limit: refused by count.
    const thousands = await manyEmptyEntries(SKILL, 5_000);
    expect(await refusal(thousands)).toMatch(/more than 1024 entries/);
    const files: Record<string, Uint8Array> = { "SKILL.md": SKILL };
    for (let index = 0; index < 100_000; index += 1) files[`f/${index}`] = new Uint8Array();
    expect(await refusal(zipSync(files, { level: 0 }))).toMatch(/more than 1024 entries/);
  }, 60_000);

  it("no SKILL.md at the root, a path twice, and bytes that are no archive", async () => {
    expect(await refusal(await tarGz([{ name: "skill/SKILL.md", body: SKILL }]))).toMatch(/no SKILL\.md at its root/);
    expect(
      await refusal(
        await tarGz([
          { name: "SKILL.md", body: SKILL },
          { name: "./SKILL.md", body: SKILL },
        ]),
      ),
    ).toMatch(/twice/);
    expect(await refusal(new TextEncoder().encode("just text"))).toMatch(/neither a \.tar\.gz nor a \.zip/);
  });

  it("takes ./ prefixes and folder entries as the files beneath them", async () => {
    const read = await unpackSkillArchive(
      await tarGz([
        { name: "./", type: "directory" },
        { name: "./SKILL.md", body: SKILL },
        { name: "./refs/", type: "directory" },
        { name: "./refs/a.md", body: SKILL },
      ]),
      "ok",
    );
    expect(read.map((file) => file.path)).toEqual(["SKILL.md", "refs/a.md"]);
  });
});
