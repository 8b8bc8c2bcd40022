import { execFileSync } from "node:child_process";
import { readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findSkills } from "../../../../src/cli/skill-folder.js";
import { SIGNATURE_FILE, skillManifest } from "../../../../src/skills/signing/manifest.js";
import { signManifest } from "../../../../src/skills/signing/ssh-keygen.js";
import { startSkillServer } from "../../../helpers/skill-server.js";
import { GetSkillResultSchema } from "../../../helpers/skills-host.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

describe("skills-extension: the verified signer in _meta", () => {
  it("names it while the signature verifies, and drops it once a file changes", async () => {
    const root = await tempDir();
    const keys = await tempDir();
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "alice@example.com", "-f", join(keys, "alice")]);
    const allowed = join(keys, "allowed_signers");
    const alicePub = (await readFile(join(keys, "alice.pub"), "utf8")).split(" ").slice(0, 2).join(" ");
    await writeFile(allowed, `alice@example.com ${alicePub}\n`);
    await writeSkillFile(root, "s", skillMd("s"));
    const notes = await writeSkillFile(root, "s", "signed text", "notes.txt");
    const [found] = (await findSkills(join(root, "s"), { maxDepth: 0, maxDirectories: 10 }))!;
    await writeFile(
      join(root, "s", SIGNATURE_FILE),
      await signManifest(await skillManifest(found!.reader), join(keys, "alice")),
    );

    const server = await startSkillServer(
      [root],
      [["skill-policy", { allowedSigners: allowed }], "skill-resources", "skills-extension"],
      { watch: false },
    );
    const meta = async () =>
      (
        await server.client.request(
          { method: "skills/get", params: { uri: "skill://s/SKILL.md" } },
          GetSkillResultSchema,
        )
      ).skill._meta;
    try {
      expect(await meta()).toEqual({
        "dev.skills-kernel/signer": { key: expect.stringMatching(/^ED25519 SHA256:/), principal: "alice@example.com" },
      });
      // Another version of a file (its mtime moves): verified again, and the signature no longer covers it.
      await writeFile(notes, "other text!");
      const later = new Date(Date.now() + 60_000);
      await utimes(notes, later, later);
      expect(await meta()).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
