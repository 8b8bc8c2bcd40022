import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startGitHttpServer, type GitHttpServer } from "../helpers/git-http-server.js";
import { loopbackCert } from "../helpers/loopback-cert.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";
import { filesHolding } from "../helpers/grep.js";

/**
 * Private repositories over HTTPS with a token from the environment (--token-env HOST=VAR), through
 * the bundle: two hosts, each git's own http-backend on loopback behind Basic auth with a
 * certificate of the test's. The token reaches its host only, and is written nowhere.
 */
const TOKEN_A = "tokA-SHOULD-never-leak-9f3";
const TOKEN_B = "tokB-SHOULD-never-leak-4c1";

let base: string;
let repoA: TestRepository;
let repoB: TestRepository;
let hostA: GitHttpServer;
let hostB: GitHttpServer;
let env: NodeJS.ProcessEnv;

const hostOf = (server: GitHttpServer) => new URL(server.origin).host;
/** The passwords each server was sent, from its Basic authorization headers. */
const passwordsSeen = (server: GitHttpServer) =>
  server.authorizations.filter(Boolean).map((header) =>
    Buffer.from(header.replace(/^Basic /, ""), "base64")
      .toString()
      .split(":")
      .slice(1)
      .join(":"),
  );

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-tokens-"));
  const tls = await loopbackCert(base);
  repoA = await createRepository({ "skills/alpha/SKILL.md": skill("alpha", "The private alpha.") }, base);
  repoB = await createRepository({ "skills/beta/SKILL.md": skill("beta", "The private beta.") }, base);
  hostA = await startGitHttpServer(join(repoA.bare, ".."), { username: "x-access-token", password: TOKEN_A }, tls);
  hostB = await startGitHttpServer(join(repoB.bare, ".."), { username: "x-access-token", password: TOKEN_B }, tls);
  env = {
    HOME: join(base, "home"),
    XDG_CACHE_HOME: join(base, "cache"),
    XDG_STATE_HOME: join(base, "state"),
    CI: "1",
    GIT_SSL_CAINFO: tls.certFile,
    SK_TOKEN_A: TOKEN_A,
    SK_TOKEN_B: TOKEN_B,
    GITHUB_TOKEN: "",
    GH_TOKEN: "",
  };
});

afterAll(async () => {
  await hostA?.close();
  await hostB?.close();
  await rm(base, { recursive: true, force: true });
});

describe("--token-env for git over HTTPS (bundle, git http-backend)", () => {
  it("adds and updates a private repository, and the token is in no file, argument or message", async () => {
    const project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    const run = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
    const token = ["--token-env", `${hostOf(hostA)}=SK_TOKEN_A`];
    const url = `${hostA.origin}/origin.git`;

    const anonymous = await run(["add", `${url}:skills`, "--agent", "claude-code"]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/could not read Username|401|Authentication/i);

    const added = await run(["add", `${url}:skills`, "--agent", "claude-code", ...token]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^added alpha at \w{12} \(tracking the default branch\) for claude-code/);
    expect(passwordsSeen(hostA)).toContain(TOKEN_A);

    await repoA.commit({ "skills/alpha/SKILL.md": skill("alpha", "The private alpha, second edition.") });
    const unknown = await run(["outdated", "--json"]);
    expect(JSON.parse(unknown.stdout)).toMatchObject([{ name: "alpha", status: "unknown" }]);
    const outdated = await run(["outdated", "--json", ...token]);
    expect(JSON.parse(outdated.stdout)).toMatchObject([{ name: "alpha", status: "outdated" }]);
    const updated = await run(["update", ...token]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toMatch(/^updated alpha: \w{12} -> \w{12}\n$/);
    expect(await readFile(join(project, ".claude", "skills", "alpha", "SKILL.md"), "utf8")).toContain("second edition");

    const lock = await readFile(join(project, "skills-lock.json"), "utf8");
    expect(JSON.parse(lock).skills.alpha.sourceUrl).toBe(url);
    for (const result of [added, outdated, updated]) expect(result.stdout + result.stderr).not.toContain(TOKEN_A);
    // The project (lock, skills) and every checkout and cache file, .git/config included.
    expect(filesHolding(project, TOKEN_A)).toBe("");
    expect(filesHolding(join(base, "cache"), TOKEN_A)).toBe("");
  });

  it("sends a host's token to that host only", async () => {
    const project = join(base, "two-hosts");
    await mkdir(join(project, ".git"), { recursive: true });
    const run = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
    const before = hostB.authorizations.length;
    const refused = await run([
      "add",
      `${hostB.origin}/origin.git:skills`,
      "--agent",
      "cursor",
      "--token-env",
      `${hostOf(hostA)}=SK_TOKEN_A`,
    ]);
    expect(refused.code).toBe(1);
    expect(hostB.authorizations.length).toBeGreaterThan(before);
    const both = [
      "--token-env",
      `${hostOf(hostA)}=SK_TOKEN_A`,
      "--token-env",
      `x-access-token@${hostOf(hostB)}=SK_TOKEN_B`,
    ];
    const added = await run(["add", `${hostB.origin}/origin.git:skills`, "--agent", "cursor", ...both]);
    expect(added.code, added.stderr).toBe(0);
    expect(passwordsSeen(hostB)).toContain(TOKEN_B);
    expect(passwordsSeen(hostB)).not.toContain(TOKEN_A);
    expect(passwordsSeen(hostA)).not.toContain(TOKEN_B);
  });

  it("refuses a --token-env naming an unset variable or no host, in one line", async () => {
    const unset = await runCli(["outdated", "--token-env", "git.example.com=SK_NOT_SET"], { cwd: base, env });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toBe("skills-kernel: --token-env git.example.com=SK_NOT_SET: SK_NOT_SET is not set\n");
    const malformed = await runCli(["outdated", "--token-env", "SK_TOKEN_A"], { cwd: base, env });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toBe('skills-kernel: --token-env: "SK_TOKEN_A" is not HOST=VARIABLE\n');
  });
});
