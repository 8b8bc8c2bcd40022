import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { NODE_24, NPX_SKILLS } from "../helpers/runtimes.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * One skills-lock.json shared with the real `skills` CLI (vercel-labs/skills 1.7.4, what `npx
 * skills` runs; test/runtimes installs it): each reads the other's entries, and neither drops or
 * duplicates them. Offline, against a local repository; the bundle on our side.
 */
let base: string;
let repo: TestRepository;
let project: string;
let env: Record<string, string>;

const ours = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
const theirs = (args: string[]) =>
  promisify(execFile)(NODE_24, [NPX_SKILLS, ...args, "-y"], {
    cwd: project,
    env: { ...process.env, ...env, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1" },
    timeout: 60_000,
  });
const lock = async () => JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-npx-"));
  repo = await createRepository(
    {
      "skills/review/SKILL.md": skill("review", "Review a change."),
      "skills/deploy/SKILL.md": skill("deploy", "Deploy it."),
    },
    base,
  );
  project = join(base, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  env = { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache"), XDG_STATE_HOME: join(base, "state"), CI: "1" };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("skills-lock.json shared with npx skills (skills 1.7.4 on Node 24)", () => {
  it("installed reads what npx skills wrote, and add takes its entry over instead of duplicating it", async () => {
    await theirs(["add", repo.url, "--skill", "review", "--agent", "claude-code"]);
    const written = (await lock()).skills.review;
    // Its fields, as its source declares them: source, sourceUrl (generic git), sourceType, skillPath, computedHash.
    expect(written).toEqual({
      source: repo.url,
      sourceUrl: repo.url,
      sourceType: "git",
      skillPath: "skills/review/SKILL.md",
      computedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const installed = await ours(["installed", "--json"]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject([
      { name: "review", state: "ok", agents: ["claude-code"], source: repo.url, installedBy: "npx skills" },
    ]);

    const added = await ours(["add", `${repo.url}:skills@review`, "--agent", "claude-code"]);
    expect(added.code, added.stderr).toBe(0);
    const after = await lock();
    expect(Object.keys(after.skills)).toEqual(["review"]);
    // Its own fields keep its meanings: the same URL, SKILL.md path and folder digest.
    expect(after.skills.review).toMatchObject({
      sourceUrl: repo.url,
      sourceType: "git",
      skillPath: "skills/review/SKILL.md",
      computedHash: written.computedHash,
    });
    expect(after.skills.review.files).toEqual({ "SKILL.md": expect.stringMatching(/^sha256:/) });
  });

  it("npx skills keeps our entries whole when it writes the lock, and we read its new one", async () => {
    const before = (await lock()).skills.review;
    await theirs(["add", repo.url, "--skill", "deploy", "--agent", "claude-code"]);
    const after = await lock();
    expect(Object.keys(after.skills)).toEqual(["deploy", "review"]);
    expect(after.skills.review).toEqual(before);
    const installed = JSON.parse((await ours(["installed", "--json"])).stdout);
    expect(installed).toMatchObject([
      { name: "deploy", state: "ok", installedBy: "npx skills" },
      { name: "review", state: "ok", installedBy: "skills-kernel" },
    ]);
  });
});
