import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { NODE_24, NPX_SKILLS } from "../helpers/runtimes.js";

/**
 * A project lock that travels: local folders inside the project or beside it are recorded
 * relative to it, as npx skills writes them, so after the whole tree moves both tools still
 * find them; a folder farther away is recorded whole, and `add` says so.
 */
describe("skills-lock.json with local folders, moved with its project", () => {
  let base: string;
  let far: string;
  let env: NodeJS.ProcessEnv;
  const project = () => join(base, "work", "app");
  const run = (args: string[]) => runCli(args, { cwd: project(), env, timeoutMs: 60_000 });
  const lock = async () => JSON.parse(await readFile(join(project(), "skills-lock.json"), "utf8"));
  const theirs = (args: string[]) =>
    promisify(execFile)(NODE_24, [NPX_SKILLS, ...args, "-y"], {
      cwd: project(),
      env: { ...process.env, ...env, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1" },
      timeout: 60_000,
    });

  async function skillFolder(folder: string, name: string): Promise<void> {
    await mkdir(join(folder, name), { recursive: true });
    await writeFile(
      join(folder, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: The ${name} skill.\n---\nUse ${name}.\n`,
    );
  }

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-portable-"));
    far = await mkdtemp(join(tmpdir(), "skills-kernel-far-"));
    await mkdir(join(project(), ".git"), { recursive: true });
    await skillFolder(join(project(), "team-skills"), "inside");
    await skillFolder(join(base, "work", "shared-skills"), "beside");
    await skillFolder(far, "faraway");
    env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
    await rm(far, { recursive: true, force: true });
  });

  it("records folders inside and beside the project relative to it, and a far one whole with a note", async () => {
    expect((await run(["add", "./team-skills", "--agent", "claude-code"])).code).toBe(0);
    expect((await run(["add", "../shared-skills", "--agent", "claude-code"])).code).toBe(0);
    const farAdd = await run(["add", far, "--agent", "claude-code"]);
    expect(farAdd.code, farAdd.stderr).toBe(0);
    expect(farAdd.stderr).toContain(`skills-kernel: note: ${far} is outside the project and its parent folder, so`);
    const skills = (await lock()).skills;
    expect(skills.inside).toMatchObject({ source: "./team-skills", sourceType: "local" });
    expect(skills.beside).toMatchObject({ source: "../shared-skills", sourceType: "local" });
    expect(skills.inside.sourceUrl).toBeUndefined();
    expect(skills.faraway).toMatchObject({ source: far, sourceUrl: far, sourceType: "local" });
  });

  it("still finds every folder after the tree moved: outdated, update and restore here, install from the lock there", async () => {
    const moved = `${base}-moved`;
    await rename(base, moved);
    base = moved;
    env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
    const outdated = await run(["outdated", "--json"]);
    expect(outdated.code, outdated.stderr).toBe(0);
    expect(JSON.parse(outdated.stdout).map((row: { status: string }) => row.status)).toEqual([
      "current",
      "current",
      "current",
    ]);
    await writeFile(
      join(base, "work", "shared-skills", "beside", "SKILL.md"),
      "---\nname: beside\ndescription: Changed beside.\n---\nNew.\n",
    );
    const updated = await run(["update", "beside"]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(await readFile(join(project(), ".claude", "skills", "beside", "SKILL.md"), "utf8")).toContain(
      "Changed beside.",
    );
    await rm(join(project(), ".claude"), { recursive: true });
    await rm(join(project(), ".agents"), { recursive: true });
    const restored = await run(["restore"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(existsSync(join(project(), ".claude", "skills", "inside", "SKILL.md"))).toBe(true);
    // npx skills reads the same relative paths from the moved tree.
    await rm(join(project(), ".agents"), { recursive: true });
    await theirs(["experimental_install"]);
    expect(await readFile(join(project(), ".agents", "skills", "beside", "SKILL.md"), "utf8")).toContain(
      "Changed beside.",
    );
    expect(existsSync(join(project(), ".agents", "skills", "inside", "SKILL.md"))).toBe(true);
  });
});
