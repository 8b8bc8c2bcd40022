import { describe, expect, it } from "vitest";
import { isSecretPath } from "../../src/skills/files/secret-files.js";
import { skillMd, tempDir, writeSkillFile } from "../plugins/sources/fs/files.js";
import { SKILL_PLUGINS, startSkillServer, textOf } from "../helpers/skill-server.js";

// #14 item 8: a .env beside a skill came back through fetch_skill_files.

describe("isSecretPath", () => {
  it.each([
    ".env",
    ".env.local",
    ".ENV.production",
    "deploy/server.pem",
    "tls.key",
    ".npmrc",
    "id_rsa",
    "keys/id_ed25519",
    ".ssh/config",
    ".aws/credentials",
    "store.p12",
    ".git-credentials",
    ".netrc",
  ])("holds %s back", (path) => expect(isSecretPath(path)).toBe(true));
  it.each([
    ".env.example",
    ".env.sample",
    "id_rsa.pub",
    "keys.md",
    "env.md",
    "references/guide.md",
    "monkey.md",
    "key.txt",
  ])("serves %s", (path) => expect(isSecretPath(path)).toBe(false));
});

async function skillWithSecrets() {
  const root = await tempDir();
  await writeSkillFile(root, "deploy", skillMd("deploy"));
  await writeSkillFile(root, "deploy", "SECRET=hunter2\n", ".env");
  await writeSkillFile(root, "deploy", "SECRET=changeme\n", ".env.example");
  await writeSkillFile(root, "deploy/certs", "-----BEGIN PRIVATE KEY-----\n", "server.pem");
  await writeSkillFile(root, "deploy", "//registry.npmjs.org/:_authToken=npm_x\n", ".npmrc");
  await writeSkillFile(root, "deploy", "# Guide\n", "guide.md");
  return root;
}

describe("files named like credentials", () => {
  it("are neither listed by read_skill nor served by fetch_skill_files or skill:// resources", async () => {
    const server = await startSkillServer([await skillWithSecrets()], SKILL_PLUGINS);
    try {
      const read = await server.call("read_skill", { skill_name: "deploy" });
      expect((read.structuredContent as { files: string[] }).files).toEqual([".env.example", "guide.md"]);
      expect(textOf(read)).toContain("3 files named like credentials (.env, *.pem…) not served.");

      const fetched = await server.call("fetch_skill_files", {
        skill_name: "deploy",
        file_paths: [".env", "certs/server.pem", ".npmrc", ".env.example"],
      });
      const files = (fetched.structuredContent as { files: Record<string, unknown>[] }).files;
      expect(files.slice(0, 3).map((file) => file.error)).toEqual(
        Array(3).fill(expect.stringMatching(/usually holds secrets.*includeSecretFiles/)),
      );
      expect(files[3]).toMatchObject({ path: ".env.example", content: "SECRET=changeme\n" });
      expect(JSON.stringify(fetched)).not.toContain("hunter2");

      await expect(server.client.readResource({ uri: "skill://deploy/.env" })).rejects.toThrow(/usually holds secrets/);
    } finally {
      await server.close();
    }
  });

  it("are served when a plugin's includeSecretFiles option says so", async () => {
    const root = await skillWithSecrets();
    const server = await startSkillServer(
      [root],
      [
        ["read-skill", { includeSecretFiles: true }],
        ["fetch-skill-files", { includeSecretFiles: true }],
      ],
    );
    try {
      const read = await server.call("read_skill", { skill_name: "deploy" });
      expect((read.structuredContent as { files: string[] }).files).toEqual([
        ".env",
        ".env.example",
        ".npmrc",
        "certs/server.pem",
        "guide.md",
      ]);
      const fetched = await server.call("fetch_skill_files", { skill_name: "deploy", file_paths: [".env"] });
      expect(textOf(fetched)).toContain("SECRET=hunter2");
    } finally {
      await server.close();
    }
  });
});
