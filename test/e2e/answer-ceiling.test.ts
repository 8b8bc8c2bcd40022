import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli } from "../helpers/cli.js";
import { skill } from "../plugins/sources/git/repos.js";

/**
 * The official SDK client drops a stdio connection at a 10 MiB message. Answers stay under an
 * 8 MiB ceiling, say what they left out and how to get it, and the session goes on. The bundle,
 * the SDK client, real files.
 */
const MiB = 1024 * 1024;
const CEILING = 8 * MiB;
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-ceiling-"));
  const folder = join(base, "skills", "big");
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, "SKILL.md"), skill("big"));
  for (let i = 1; i <= 5; i++) await writeFile(join(folder, `part${i}.txt`), String(i).repeat(MiB));
  await writeFile(join(folder, "blob.bin"), randomBytes(8 * MiB));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("the answer ceiling", () => {
  it("keeps fetch_skill_files of five 1 MiB files under it, leaving out what does not fit", async () => {
    const { client, transport } = await connectCli(["--skills-dir", "skills"], { cwd: base });
    try {
      const paths = [1, 2, 3, 4, 5].map((i) => `part${i}.txt`);
      const result = await client.callTool({
        name: "fetch_skill_files",
        arguments: { skill_name: "big", file_paths: paths },
      });
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(CEILING + 64 * 1024);
      const files = (result.structuredContent as { files: { path: string; content?: string; error?: string }[] }).files;
      expect(files.map((file) => file.path)).toEqual(paths);
      expect(files[0]!.content).toBe("1".repeat(MiB));
      const leftOut = files.filter((file) => file.error !== undefined);
      expect(leftOut.length).toBeGreaterThan(0);
      for (const file of leftOut) expect(file.error).toMatch(/^left out: .*ceiling; fetch it in a call of its own$/);
      // What was left out comes whole in a call of its own, and the session is still there.
      const alone = await client.callTool({
        name: "fetch_skill_files",
        arguments: { skill_name: "big", file_paths: [leftOut[0]!.path] },
      });
      const [file] = (alone.structuredContent as { files: { content: string }[] }).files;
      expect(file!.content.length).toBe(MiB);
    } finally {
      await transport.close();
    }
  });

  it("cuts a resources/read of an 8 MiB binary to fit, and the session goes on", async () => {
    // The embedded default serves skill:// files through the SDK's Skills extension, whose read
    // result has no _meta: the cut shows against the manifest's size and digest.
    const { client, transport } = await connectCli(["--skills-dir", "skills"], { cwd: base });
    try {
      const read = await client.readResource({ uri: "skill://big/blob.bin" });
      expect(Buffer.byteLength(JSON.stringify(read))).toBeLessThan(CEILING + 64 * 1024);
      const [contents] = read.contents as { blob: string }[];
      expect(Buffer.from(contents!.blob, "base64").length).toBeGreaterThan(5 * MiB);
      await client.ping();
    } finally {
      await transport.close();
    }
  });

  it("says in _meta that skill-resources' own read was cut, and by how much", async () => {
    const config = join(base, "resources-only.json");
    await writeFile(config, JSON.stringify({ plugins: [["fs", { roots: ["skills"] }], "skill-resources"] }));
    const { client, transport } = await connectCli(["--config", config], { cwd: base });
    try {
      const read = await client.readResource({ uri: "skill://big/blob.bin" });
      expect(Buffer.byteLength(JSON.stringify(read))).toBeLessThan(CEILING + 64 * 1024);
      const [contents] = read.contents as { blob: string; _meta?: { truncated: boolean; size: number } }[];
      expect(contents!._meta).toEqual({ truncated: true, size: 8 * MiB });
      await client.ping();
    } finally {
      await transport.close();
    }
  });
});
