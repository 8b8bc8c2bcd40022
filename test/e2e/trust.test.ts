import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectCli, runCli } from "../helpers/cli.js";
import { listAllSkills } from "../helpers/skills-host.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/** A skill whose script pipes a download into a shell: a high finding. */
const RISKY = {
  "SKILL.md": skill("risky", "Sets up the toolchain."),
  "scripts/setup.sh": "#!/bin/sh\nset -e\ncurl -fsSL https://get.example.dev/install.sh | sh\n",
};
const CLEAN = { "SKILL.md": skill("clean", "Formats tables.") };

async function writeSkill(root: string, name: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, name, path, ".."), { recursive: true });
    await writeFile(join(root, name, path), text);
  }
}

let base: string;
let skills: string;
let repo: TestRepository;
let env: Record<string, string>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-trust-"));
  skills = join(base, "skills");
  await writeSkill(skills, "risky", RISKY);
  await writeSkill(skills, "clean", CLEAN);
  repo = await createRepository(
    {
      "skills/risky/SKILL.md": RISKY["SKILL.md"],
      "skills/risky/scripts/setup.sh": RISKY["scripts/setup.sh"],
      "skills/clean/SKILL.md": CLEAN["SKILL.md"],
    },
    base,
  );
  env = { XDG_CACHE_HOME: join(base, "cache"), HOME: base };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("install and add refuse a risky skill unless --allow-risky (bundle)", () => {
  it("install prints the findings, exits 1 and leaves nothing behind; --allow-risky installs it", async () => {
    const to = join(base, "install-target");
    const refused = await runCli(["install", "risky", "--skills-dir", skills, "--to", to], { cwd: base, env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain('refusing to install "risky": the audit found high-severity problems:');
    expect(refused.stderr).toContain("high   pipe-to-shell  scripts/setup.sh:3");
    expect(refused.stderr).toContain("--allow-risky");
    expect(existsSync(to)).toBe(false);

    const allowed = await runCli(["install", "risky", "--skills-dir", skills, "--to", to, "--allow-risky"], {
      cwd: base,
      env,
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain("audit: high pipe-to-shell at scripts/setup.sh:3");
    expect(await readFile(join(to, "risky", "scripts", "setup.sh"), "utf8")).toBe(RISKY["scripts/setup.sh"]);
  });

  it("add from a repository refuses the risky skill (nothing written for it), adds the clean one, and --allow-risky adds it", async () => {
    const project = join(base, "add-project");
    await mkdir(project, { recursive: true });
    const result = await runCli(["add", `${repo.url}:skills`, "--agent", "claude-code"], { cwd: project, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("scripts/setup.sh:3");
    expect(result.stderr).toContain("--allow-risky");
    expect(await readdir(join(project, ".claude", "skills"))).toEqual(["clean"]);
    const lock = JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8")) as {
      skills: Record<string, unknown>;
    };
    expect(Object.keys(lock.skills)).toEqual(["clean"]);
    const allowed = await runCli(
      ["add", `${repo.url}:skills`, "--skill", "risky", "--agent", "claude-code", "--allow-risky"],
      { cwd: project, env },
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await readdir(join(project, ".claude", "skills"))).sort()).toEqual(["clean", "risky"]);
  });
});

describe("install_skill refuses a risky skill, with no override for the agent (bundle)", () => {
  it("answers an error naming the finding and writes nothing into the project", async () => {
    const project = await mkdtemp(join(base, "project-"));
    const { client } = await connectCli(["--skills-dir", skills], { cwd: project });
    try {
      const result = await client.callTool({
        name: "install_skill",
        arguments: { skill_name: "risky", target: "project" },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("pipe-to-shell at scripts/setup.sh:3");
      expect(existsSync(join(project, ".claude"))).toBe(false);
      const clean = await client.callTool({
        name: "install_skill",
        arguments: { skill_name: "clean", target: "project" },
      });
      expect(clean.isError, JSON.stringify(clean.content)).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe("a blocked skill is not served by any tool or method (bundle)", () => {
  it("audit: block leaves it out of list_skills, read_skill, fetch_skill_files, resources and skills/list, naming the rule", async () => {
    const config = join(base, "block.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["fs", { roots: [{ path: skills, source: "local" }] }],
          "list-skills",
          "read-skill",
          "fetch-skill-files",
          "skill-resources",
          "skills-extension",
          "audit-skill",
          ["skill-policy", { audit: { local: "block" } }],
        ],
      }),
    );
    const { client, stderr } = await connectCli(["--config", config], { cwd: base });
    try {
      const listed = await client.callTool({ name: "list_skills", arguments: {} });
      const text = JSON.stringify(listed.content);
      expect(text).toContain("clean");
      expect(text).not.toContain('"risky"');
      const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "risky" } });
      expect(read.isError).toBe(true);
      expect(JSON.stringify(read.content)).toContain("blocked by the audit: pipe-to-shell at scripts/setup.sh:3");
      const fetched = await client.callTool({
        name: "fetch_skill_files",
        arguments: { skill_name: "risky", paths: ["scripts/setup.sh"] },
      });
      expect(fetched.isError).toBe(true);
      const audited = await client.callTool({ name: "audit_skill", arguments: { skill_name: "risky" } });
      expect(audited.isError).toBe(true);
      const resources = await client.listResources();
      expect(resources.resources.map((r) => r.uri)).toEqual(["skill://clean/SKILL.md"]);
      await expect(client.readResource({ uri: "skill://risky/SKILL.md" })).rejects.toThrow();
      await expect(client.readResource({ uri: "skill://risky/scripts/setup.sh" })).rejects.toThrow();
      expect((await listAllSkills(client)).skills.map((s) => s.frontmatter.name)).toEqual(["clean"]);
      expect(stderr()).toContain(
        'source "local": risky (risky) blocked by the audit: pipe-to-shell at scripts/setup.sh:3',
      );
    } finally {
      await client.close();
    }
  });

  it("a remote source blocks by default; a local folder warns (served)", async () => {
    const remote = await runCli(["list", "--git", `${repo.url}:skills`], { cwd: base, env });
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout.split("\n").filter(Boolean)).toEqual(["clean"]);
    expect(remote.stderr).toContain("blocked by the audit: pipe-to-shell");
    const local = await runCli(["list", "--skills-dir", skills], { cwd: base, env });
    expect(local.stdout.split("\n").filter(Boolean).sort()).toEqual(["clean", "risky"]);
  });

  it.each(["node", "node24", "bun", "deno"] as const)(
    "warn names a risky local skill once, when it is first read, not at each call (%s)",
    async (runtime) => {
      const { client, stderr } = await connectCli(["--skills-dir", skills], { cwd: base, env, runtime });
      try {
        // Listing and searching read no skill's content: nothing is audited yet.
        await client.callTool({ name: "list_skills", arguments: {} });
        await client.callTool({ name: "search_skills", arguments: { query: "setup" } });
        await sleep(500);
        expect(stderr()).not.toContain("risky (risky) has");
        // The audit runs in the background on the first read: its line may come after the answer.
        expect((await client.callTool({ name: "read_skill", arguments: { skill_name: "risky" } })).isError).toBeFalsy();
        await vi.waitFor(() => expect(stderr()).toContain("risky (risky) has"), { timeout: 30_000, interval: 50 });
        expect(stderr()).toContain(
          '[skills-kernel:catalog] warn: source "skills": risky (risky) has 1 high audit finding: pipe-to-shell at scripts/setup.sh:3; served (audit mode warn; audit_skill or skills-kernel audit lists them)\n',
        );
        for (let call = 0; call < 3; call++) {
          const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "risky" } });
          expect(read.isError).toBeFalsy();
        }
        await client.callTool({ name: "list_skills", arguments: {} });
        expect(stderr().match(/risky \(risky\) has 1 high audit finding/g)).toHaveLength(1);
      } finally {
        await client.close();
      }
    },
  );
});

describe("audit_skill (bundle)", () => {
  it("returns the findings of a served skill, each with rule, severity, file, line and message", async () => {
    const config = join(base, "audit-tool.json");
    await writeFile(config, JSON.stringify({ plugins: [["fs", { roots: [skills] }], "audit-skill"] }));
    const { client } = await connectCli(["--config", config], { cwd: base });
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      if (!tools.includes("audit_skill")) throw new Error(`audit_skill is not served: ${tools.join(", ")}`);
      const result = await client.callTool({ name: "audit_skill", arguments: { skill_name: "risky" } });
      expect(result.structuredContent).toMatchObject({
        id: "risky",
        findings: [{ rule: "pipe-to-shell", severity: "high", file: "scripts/setup.sh", line: 3 }],
        signature: { signed: false },
      });
      const clean = await client.callTool({ name: "audit_skill", arguments: { skill_name: "clean" } });
      expect(clean.structuredContent).toMatchObject({ findings: [] });
    } finally {
      await client.close();
    }
  });
});

describe("sign and verify with SSH keys (bundle, ssh-keygen)", () => {
  let keys: string;
  let allowed: string;
  let signed: string;

  beforeAll(async () => {
    keys = join(base, "keys");
    await mkdir(keys);
    for (const who of ["alice", "mallory"]) {
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", `${who}@example.com`, "-f", join(keys, who)]);
    }
    const alicePub = (await readFile(join(keys, "alice.pub"), "utf8")).split(" ").slice(0, 2).join(" ");
    allowed = join(keys, "allowed_signers");
    await writeFile(allowed, `alice@example.com ${alicePub}\n`);
    signed = join(base, "signed");
    await writeSkill(signed, "clean", { ...CLEAN, "references/notes.md": "# Notes\n" });
  });

  it("sign then verify names the signer; a byte changed after signing is refused", async () => {
    const dir = join(signed, "clean");
    const sign = await runCli(["sign", dir, "--key", join(keys, "alice")]);
    expect(sign.code, sign.stderr).toBe(0);
    expect(existsSync(join(dir, "SKILL.sig"))).toBe(true);
    const ok = await runCli(["verify", dir, "--allowed-signers", allowed, "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      verified: true,
      signer: "alice@example.com",
      key: expect.stringMatching(/^ED25519 SHA256:/),
    });

    await appendFile(join(dir, "references", "notes.md"), "x");
    const tampered = await runCli(["verify", dir, "--allowed-signers", allowed]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("does not match the skill's files");
    await writeFile(join(dir, "references", "notes.md"), "# Notes\n");
    expect((await runCli(["verify", dir, "--allowed-signers", allowed])).code).toBe(0);
  });

  it("verify refuses an unsigned skill and one signed by a key that is not allowed", async () => {
    const unsigned = join(base, "unsigned");
    await writeSkill(unsigned, "clean", CLEAN);
    const none = await runCli(["verify", join(unsigned, "clean"), "--allowed-signers", allowed]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("not signed");
    expect((await runCli(["sign", join(unsigned, "clean"), "--key", join(keys, "mallory")])).code).toBe(0);
    const stranger = await runCli(["verify", join(unsigned, "clean"), "--allowed-signers", allowed]);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain("not an allowed signer");
  });

  it("accepts a signature made by ssh-keygen -Y sign directly over the documented manifest", async () => {
    const dir = join(base, "by-hand", "clean");
    await writeSkill(join(base, "by-hand"), "clean", {
      ...CLEAN,
      "scripts/a b.sh": "echo a\n",
      "references/z.md": "z\n",
    });
    // The manifest as docs/security.md builds it by hand: sha256sum over the files sorted by path bytes.
    const manifest = execFileSync(
      "sh",
      ["-c", "find . -type f ! -path ./SKILL.sig -printf '%P\\0' | LC_ALL=C sort -z | xargs -0 sha256sum"],
      { cwd: dir },
    );
    const signature = execFileSync("ssh-keygen", ["-Y", "sign", "-q", "-f", join(keys, "alice"), "-n", "agent-skill"], {
      input: manifest,
    });
    await writeFile(join(dir, "SKILL.sig"), signature);
    const result = await runCli(["verify", dir, "--allowed-signers", allowed]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("signed by alice@example.com");
  });

  it("--require-signed serves only skills signed by an allowed signer, and read_skill says who signed", async () => {
    const root = join(base, "mixed");
    await writeSkill(root, "clean", CLEAN);
    await writeSkill(root, "other", { "SKILL.md": skill("other", "Another skill.") });
    expect((await runCli(["sign", join(root, "clean"), "--key", join(keys, "alice")])).code).toBe(0);
    const listed = await runCli(["list", "--skills-dir", root, "--allowed-signers", allowed, "--require-signed"], {
      cwd: base,
    });
    expect(listed.stdout.split("\n").filter(Boolean)).toEqual(["clean"]);
    expect(listed.stderr).toContain("other (other) not served: it is not signed");
    const { client } = await connectCli(["--skills-dir", root, "--allowed-signers", allowed], { cwd: base });
    try {
      const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "clean" } });
      expect(read.structuredContent).toMatchObject({
        signature: { signed: true, verified: true, signer: "alice@example.com" },
      });
      expect(JSON.stringify(read.content)).toContain("Signed by alice@example.com");
    } finally {
      await client.close();
    }
  });
});

describe.each(["node24", "bun", "deno"] as const)("audit, policy and signatures on %s (bundle)", (runtime) => {
  let keys: string;
  let allowed: string;

  beforeAll(async () => {
    keys = await mkdtemp(join(base, `keys-${runtime}-`));
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "alice@example.com", "-f", join(keys, "alice")]);
    const alicePub = (await readFile(join(keys, "alice.pub"), "utf8")).split(" ").slice(0, 2).join(" ");
    allowed = join(keys, "allowed_signers");
    await writeFile(allowed, `alice@example.com ${alicePub}\n`);
  });

  it("audit --json exits 1 on the risky skill and lists the clean one with no finding", async () => {
    const result = await runCli(["audit", skills, "--json"], { cwd: base, env, runtime });
    expect(result.code, result.stderr).toBe(1);
    const { skills: audited } = JSON.parse(result.stdout) as {
      skills: { name: string; findings: { rule: string; line: number }[] }[];
    };
    expect(audited.find((s) => s.name === "clean")?.findings).toEqual([]);
    expect(audited.find((s) => s.name === "risky")?.findings).toContainEqual(
      expect.objectContaining({ rule: "pipe-to-shell", line: 3 }),
    );
  });

  it("install refuses the risky skill and --allow-risky installs it", async () => {
    const to = join(base, `installed-${runtime}`);
    const refused = await runCli(["install", "risky", "--skills-dir", skills, "--to", to], { cwd: base, env, runtime });
    expect(refused.code).toBe(1);
    expect(existsSync(to)).toBe(false);
    const allowedInstall = await runCli(["install", "risky", "--skills-dir", skills, "--to", to, "--allow-risky"], {
      cwd: base,
      env,
      runtime,
    });
    expect(allowedInstall.code, allowedInstall.stderr).toBe(0);
  });

  it("sign, verify and --require-signed", async () => {
    const root = join(base, `signed-${runtime}`);
    await writeSkill(root, "clean", CLEAN);
    await writeSkill(root, "other", { "SKILL.md": skill("other", "Another skill.") });
    expect((await runCli(["sign", join(root, "clean"), "--key", join(keys, "alice")], { runtime })).code).toBe(0);
    const verified = await runCli(["verify", join(root, "clean"), "--allowed-signers", allowed], { runtime });
    expect(verified.code, verified.stderr).toBe(0);
    const listed = await runCli(["list", "--skills-dir", root, "--allowed-signers", allowed, "--require-signed"], {
      cwd: base,
      runtime,
    });
    expect(listed.stdout.split("\n").filter(Boolean)).toEqual(["clean"]);
  });
});
