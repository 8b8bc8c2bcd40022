import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT } from "../helpers/cli.js";
import { CLAUDE } from "../helpers/runtimes.js";

/**
 * Where `claude mcp add` puts the entry docs/getting-started.md gives, by scope, as the real Claude
 * Code (test/runtimes) writes it: in a scratch HOME, telemetry and nonessential traffic off.
 */
let base: string;
let home: string;
let project: string;

const claude = (...args: string[]) =>
  spawnSync(CLAUDE, args, {
    cwd: project,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      ...process.env,
      HOME: home,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    },
  });
const server = ["--", process.execPath, CLI, "--skills-dir", join(REPO_ROOT, "examples/skills")];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-claude-scopes-"));
  home = join(base, "home");
  project = join(base, "project");
  await mkdir(home);
  await mkdir(project);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("claude mcp add's scopes, as docs/getting-started.md states them", () => {
  it("the guide says what each scope does", async () => {
    const guide = (await readFile(join(REPO_ROOT, "docs/getting-started.md"), "utf8")).replace(/\s+/g, " ");
    expect(guide).toContain(
      "The entry is Claude Code's default scope, `local`: this project, for you alone (kept in `~/.claude.json`). `claude mcp add --scope project …` writes it to the project's `.mcp.json` instead",
    );
  });

  it("by default, this project's entry in ~/.claude.json; --scope project, the project's .mcp.json", async () => {
    const local = claude("mcp", "add", "skills", ...server);
    expect(local.status, local.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(home, ".claude.json"), "utf8"));
    expect(settings.projects[project].mcpServers.skills).toMatchObject({ command: process.execPath });
    expect(settings.mcpServers?.skills).toBeUndefined();
    expect(existsSync(join(project, ".mcp.json"))).toBe(false);

    const shared = claude("mcp", "add", "--scope", "project", "team-skills", ...server);
    expect(shared.status, shared.stderr).toBe(0);
    const mcpJson = JSON.parse(await readFile(join(project, ".mcp.json"), "utf8"));
    expect(mcpJson.mcpServers["team-skills"]).toMatchObject({ command: process.execPath });
  });
});
