import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, runCli } from "../helpers/cli.js";
import { listAllSkills } from "../helpers/skills-host.js";
import { createRepository, git, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * The signer's key in skills-lock.json, through the bundle with ssh-keygen: add records it;
 * update and restore refuse a skill whose signer changed or whose signature is gone, unless
 * --accept-signer; the Skills extension names a verified signer in an entry's _meta.
 */
let base: string;
let keys: string;
let allowed: string;
let repo: TestRepository;
let project: string;
let env: Record<string, string>;
const fingerprint: Record<string, string> = {};

const run = (args: string[], cwd = project) => runCli(args, { cwd, env, timeoutMs: 60_000 });
const lock = async () => JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));
const installed = () => readFile(join(project, ".claude", "skills", "signed", "SKILL.md"), "utf8");

/** Commits the skill's files, signed by `who` (or unsigned). */
async function publish(description: string, who?: string): Promise<void> {
  const dir = join(repo.work, "skills", "signed");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), skill("signed", description));
  await rm(join(dir, "SKILL.sig"), { force: true });
  if (who) {
    const signed = await runCli(["sign", dir, "--key", join(keys, who)], { env });
    expect(signed.code, signed.stderr).toBe(0);
  }
  await repo.commit({}, description);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-trust-lock-"));
  keys = join(base, "keys");
  await mkdir(keys);
  for (const who of ["alice", "mallory"]) {
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", `${who}@example.com`, "-f", join(keys, who)]);
    // "256 SHA256:… alice@example.com (ED25519)" → "ED25519 SHA256:…"
    const [, hash, , type] = execFileSync("ssh-keygen", ["-lf", join(keys, `${who}.pub`)], { encoding: "utf8" })
      .trim()
      .split(" ");
    fingerprint[who] = `${type!.replace(/[()]/g, "")} ${hash}`;
  }
  allowed = join(keys, "allowed_signers");
  const alicePub = (await readFile(join(keys, "alice.pub"), "utf8")).split(" ").slice(0, 2).join(" ");
  await writeFile(allowed, `alice@example.com ${alicePub}\n`);
  repo = await createRepository({ "README.md": "# skills\n" }, base);
  env = { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache"), XDG_STATE_HOME: join(base, "state"), CI: "1" };
  project = join(base, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  await publish("First edition.", "alice");
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("the signer in skills-lock.json (bundle, ssh-keygen)", () => {
  it("add records the signer's key, and its principal against --allowed-signers", async () => {
    const added = await run(["add", `${repo.url}:skills`, "--agent", "claude-code", "--allowed-signers", allowed]);
    expect(added.code, added.stderr).toBe(0);
    expect((await lock()).skills.signed.signer).toEqual({ key: fingerprint.alice, principal: "alice@example.com" });
  });

  it("update refuses a new signer in one line, writing nothing; --accept-signer takes it", async () => {
    await publish("Second edition, by someone else.", "mallory");
    const refused = await run(["update"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `skills-kernel: refusing to update "signed": its signer changed from ${fingerprint.alice} to ${fingerprint.mallory}; nothing was written (--accept-signer takes it as it is)\n`,
    );
    expect(await installed()).toContain("First edition.");
    expect((await lock()).skills.signed.signer.key).toBe(fingerprint.alice);

    const accepted = await run(["update", "--accept-signer"]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(await installed()).toContain("Second edition");
    expect((await lock()).skills.signed.signer).toEqual({ key: fingerprint.mallory });
  });

  it("update refuses a skill whose signature is gone", async () => {
    await publish("Third edition, unsigned.");
    const refused = await run(["update"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `skills-kernel: refusing to update "signed": it was signed by ${fingerprint.mallory} and it is no longer signed (no SKILL.sig); nothing was written (--accept-signer takes it as it is)\n`,
    );
    expect(await installed()).toContain("Second edition");
  });

  it("restore refuses a skill signed by another key than the lock's; --accept-signer restores it", async () => {
    const text = await readFile(join(project, "skills-lock.json"), "utf8");
    await writeFile(join(project, "skills-lock.json"), text.replace(fingerprint.mallory!, fingerprint.alice!));
    await rm(join(project, ".claude"), { recursive: true });
    await rm(join(project, ".agents"), { recursive: true });
    const refused = await run(["restore"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `skills-kernel: refusing to restore "signed": its signer changed from ${fingerprint.alice} to ${fingerprint.mallory}; nothing was written (--accept-signer takes it as it is)\n`,
    );
    const restored = await run(["restore", "--accept-signer"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await installed()).toContain("Second edition");
  });
});

describe("the signer in the Skills extension's entries (bundle, ssh-keygen)", () => {
  it("names a verified signer in _meta, and none for an unsigned or unverified skill", async () => {
    const served = join(base, "served");
    git(base, "clone", "-q", repo.bare, served);
    git(served, "checkout", "-q", "HEAD~1"); // the edition mallory signed
    const { client, transport } = await connectCli(
      ["--skills-dir", join(served, "skills"), "--allowed-signers", allowed],
      { cwd: base, env },
    );
    try {
      const { skills } = await listAllSkills(client);
      expect(skills.map((entry) => entry.frontmatter.name)).toEqual(["signed"]);
      expect(skills[0]!._meta).toBeUndefined(); // mallory is no allowed signer
    } finally {
      await transport.close();
    }
    git(served, "checkout", "-q", "HEAD~1"); // alice's
    const second = await connectCli(["--skills-dir", join(served, "skills"), "--allowed-signers", allowed], {
      cwd: base,
      env,
    });
    try {
      const { skills } = await listAllSkills(second.client);
      expect(skills[0]!._meta).toEqual({
        "dev.skills-kernel/signer": { key: fingerprint.alice, principal: "alice@example.com" },
      });
    } finally {
      await second.transport.close();
    }
  });
});

describe("add --require-signed (bundle, ssh-keygen)", () => {
  it("copies only a skill signed by an allowed signer, and refuses the others in one line", async () => {
    const fresh = async (name: string) => {
      const dir = join(base, name);
      await mkdir(join(dir, ".git"), { recursive: true });
      return dir;
    };
    const add = (cwd: string) =>
      run(
        ["add", `${repo.url}:skills`, "--agent", "claude-code", "--allowed-signers", allowed, "--require-signed"],
        cwd,
      );

    await publish("Unsigned edition.");
    const unsigned = await fresh("require-unsigned");
    const refusedUnsigned = await add(unsigned);
    expect(refusedUnsigned.code).toBe(1);
    expect(refusedUnsigned.stderr).toBe(
      'skills-kernel: "signed" is not installed: it has no SKILL.sig, and --require-signed asks for a signature by an allowed signer\n',
    );
    await expect(readFile(join(unsigned, "skills-lock.json"))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(unsigned, ".claude", "skills", "signed", "SKILL.md"))).rejects.toThrow(/ENOENT/);

    await publish("Signed by a key no one allowed.", "mallory");
    const stranger = await fresh("require-stranger");
    const refusedStranger = await add(stranger);
    expect(refusedStranger.code).toBe(1);
    expect(refusedStranger.stderr).toMatch(
      /^skills-kernel: "signed" is not installed: its SKILL\.sig does not verify \(.+\), and --require-signed asks/,
    );
    expect(refusedStranger.stderr.trimEnd().split("\n")).toHaveLength(1);
    await expect(readFile(join(stranger, "skills-lock.json"))).rejects.toThrow(/ENOENT/);

    await publish("Signed by alice again.", "alice");
    const trusted = await fresh("require-trusted");
    const added = await add(trusted);
    expect(added.code, added.stderr).toBe(0);
    expect(await readFile(join(trusted, ".claude", "skills", "signed", "SKILL.md"), "utf8")).toContain(
      "Signed by alice again.",
    );
  });
});
