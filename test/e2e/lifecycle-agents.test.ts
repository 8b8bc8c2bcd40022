import { execFile, spawn } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS } from "../../src/lifecycle/agents.js";
import { CLI, REPO_ROOT, runCli } from "../helpers/cli.js";
import { NODE_24, NPX_SKILLS } from "../helpers/runtimes.js";

/**
 * Every agent of npx skills' own table (read from its package: the `--agent` column of the
 * skills@1.7.4 package's docs/agents.md), installed by the real `npx skills` and by the bundle
 * into twin projects and twin homes: each skill lands in the same folders on both sides.
 */
const NPX_AGENTS_DOC = join(NPX_SKILLS, "..", "..", "docs", "agents.md");

let base: string;
let theirIds: string[];

async function npxAgentIds(): Promise<string[]> {
  const text = await readFile(NPX_AGENTS_DOC, "utf8");
  const table = text.slice(
    text.indexOf("<!-- supported-agents:start -->"),
    text.indexOf("<!-- supported-agents:end -->"),
  );
  const ids: string[] = [];
  for (const line of table.split("\n").slice(3)) {
    const cell = line.split("|")[2];
    if (cell) ids.push(...[...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
  }
  return ids.sort();
}

/** Every folder under `root` holding the skill's SKILL.md, through links, with what each is (link or folder). */
async function placements(root: string, skill: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(folder: string): Promise<void> {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      if (entry.name === skill && (entry.isDirectory() || entry.isSymbolicLink())) {
        const kind = (await lstat(path)).isSymbolicLink() ? "link" : "folder";
        const text = await readFile(join(path, "SKILL.md"), "utf8").catch(() => "");
        if (text.includes(`name: ${skill}`)) found.push(`${relative(root, path)} (${kind})`);
        continue;
      }
      if (entry.isDirectory()) await walk(path);
    }
  }
  await walk(root);
  return found.sort();
}

async function twin(name: string): Promise<{ project: string; home: string }> {
  const project = join(base, name, "project");
  const home = join(base, name, "home");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(home, { recursive: true });
  return { project, home };
}

const cleanEnv = (home: string) => ({
  HOME: home,
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".state"),
  XDG_CONFIG_HOME: "",
  CLAUDE_CONFIG_DIR: "",
  CI: "1",
});

async function theirs(args: string[], cwd: string, home: string): Promise<void> {
  await promisify(execFile)(NODE_24, [NPX_SKILLS, ...args, "-y"], {
    cwd,
    env: { ...process.env, ...cleanEnv(home), DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1" },
    timeout: 120_000,
  });
}

async function ours(args: string[], cwd: string, home: string): Promise<void> {
  const result = await runCli(args, { cwd, env: cleanEnv(home), timeoutMs: 120_000 });
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-agents-"));
  await mkdir(join(base, "source", "skills", "demo"), { recursive: true });
  await writeFile(
    join(base, "source", "skills", "demo", "SKILL.md"),
    "---\nname: demo\ndescription: A demo skill.\n---\nDo the demo.\n",
  );
  theirIds = await npxAgentIds();
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("the agents of npx skills 1.7.4, installed by both tools", () => {
  it("are this project's agents, by the same ids", () => {
    expect(theirIds.length).toBeGreaterThanOrEqual(79);
    expect(AGENTS.map((agent) => agent.id).sort()).toEqual(theirIds);
  });

  it("get each skill in the same project folders", async () => {
    const them = await twin("their-project");
    const us = await twin("our-project");
    const agentArgs = theirIds.flatMap((id) => ["--agent", id]);
    await theirs(["add", join(base, "source"), ...agentArgs], them.project, them.home);
    await ours(["add", join(base, "source"), ...agentArgs], us.project, us.home);
    const theirPlaces = await placements(them.project, "demo");
    // Where npx skills gives Eve a copy of its own (it rewrites Eve's frontmatter), the place is the same.
    const ourPlaces = (await placements(us.project, "demo")).map((place) =>
      place.startsWith("agent/skills/") ? place.replace("(link)", "(folder)") : place,
    );
    expect(theirPlaces.length).toBeGreaterThan(30);
    expect(ourPlaces).toEqual(theirPlaces);
  });

  it("get each skill in the same user folders with --global", async () => {
    const them = await twin("their-global");
    const us = await twin("our-global");
    const global = AGENTS.filter((agent) => agent.global !== undefined).map((agent) => agent.id);
    const agentArgs = global.flatMap((id) => ["--agent", id]);
    await theirs(["add", join(base, "source"), "--global", ...agentArgs], them.project, them.home);
    await ours(["add", join(base, "source"), "--global", ...agentArgs], us.project, us.home);
    const theirPlaces = (await placements(them.home, "demo")).map((place) => place.replace(/ \(.*\)$/, ""));
    const ourPlaces = (await placements(us.home, "demo")).map((place) => place.replace(/ \(.*\)$/, ""));
    expect(theirPlaces.length).toBeGreaterThan(40);
    expect(ourPlaces).toEqual(theirPlaces);
  });
});

/** Runs `add` under a pseudo-terminal (util-linux `script`), typing `keys` once it asks. */
function addAtTerminal(
  project: string,
  home: string,
  keys: string[],
  flags: string[] = [],
): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...cleanEnv(home), TERM: "xterm" };
  delete env.CI;
  // A new pseudo-terminal has no size: give it one, or the prompt wraps at every character.
  const command = `stty cols 120 rows 40; ${[process.execPath, CLI, "add", join(base, "source"), ...flags].map((word) => `'${word}'`).join(" ")}`;
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: project,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let typed = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.setEncoding("utf8").on("data", async (chunk: string) => {
      output += chunk;
      if (typed || !output.includes("Install for which agents")) return;
      typed = true;
      for (const key of keys) {
        child.stdin.write(key);
        await new Promise((next) => setTimeout(next, 300));
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("add at a terminal with no --agent", () => {
  it("asks which agents, with the detected ones chosen, and installs for those picked", async () => {
    const { project, home } = await twin("terminal");
    await mkdir(join(project, ".junie"));
    const result = await addAtTerminal(project, home, ["winds", "\t", "\r"]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("added demo for junie, windsurf (link, 1 file)");
    const lock = JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));
    expect(lock.skills.demo.agents).toEqual(["junie", "windsurf"]);
  });

  it("asks nothing with -y (npx skills' --yes), as docs/lifecycle.md says: it installs for the detected agents", async () => {
    const doc = (await readFile(join(REPO_ROOT, "docs/lifecycle.md"), "utf8")).replace(/\s+/g, " ");
    expect(doc).toContain(
      "Only `add` ever asks anything: without `--agent` or `--all-agents`, at a terminal (stdin and stderr), it asks which agents, unless `CI` is set or `--json` or `-y` is given",
    );
    const { project, home } = await twin("terminal-yes");
    await mkdir(join(project, ".junie"));
    const result = await addAtTerminal(project, home, [], ["-y"]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toContain("Install for which agents");
    expect(result.output).toContain("added demo for junie (link, 1 file)");
  });

  it("does not ask without a terminal: it installs for the detected agents", async () => {
    const { project, home } = await twin("no-terminal");
    await mkdir(join(project, ".junie"));
    await ours(["add", join(base, "source")], project, home);
    expect(await placements(project, "demo")).toEqual([".agents/skills/demo (folder)", ".junie/skills/demo (link)"]);
  });
});

describe("installed --check: what each agent will actually load", () => {
  it("catches a linked skills folder codex does not read and a name/folder mismatch, and passes after each fix", async () => {
    const { project, home } = await twin("check");
    await ours(["add", join(base, "source"), "--agent", "codex", "--agent", "claude-code"], project, home);
    const check = (args: string[] = []) =>
      runCli(["installed", "--check", ...args], { cwd: project, env: cleanEnv(home), timeoutMs: 60_000 });
    const clean = await check();
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe("Every agent will load every skill (1 checked).\n");

    // The user moves the shared folder away and links it back: codex no longer reads it.
    await rename(join(project, ".agents", "skills"), join(project, "store"));
    await symlink("../store", join(project, ".agents", "skills"));
    const linked = await check(["--json"]);
    expect(linked.code).toBe(1);
    expect(JSON.parse(linked.stdout)).toEqual([
      {
        skill: "demo",
        agent: "codex",
        problem: `${join(project, ".agents", "skills")} is a link, and Codex does not read a linked skills folder`,
        fix: "replace the link with the folder it points to",
        source: "https://github.com/openai/codex/issues/11314",
      },
    ]);
    await rm(join(project, ".agents", "skills"));
    await rename(join(project, "store"), join(project, ".agents", "skills"));
    expect((await check()).code).toBe(0);

    // A name that no longer matches its folder: every host rejects the skill.
    const skillFile = join(project, ".agents", "skills", "demo", "SKILL.md");
    const original = await readFile(skillFile, "utf8");
    await writeFile(skillFile, original.replace("name: demo", "name: demo-two"));
    const renamed = await check();
    expect(renamed.code).toBe(1);
    expect(renamed.stdout).toContain("claude-code will not load demo: name:");
    expect(renamed.stdout).toContain("codex will not load demo: name:");
    expect(renamed.stdout).toContain("fix: make the name in");
    await writeFile(skillFile, original);
    expect((await check()).code).toBe(0);
  });
});
