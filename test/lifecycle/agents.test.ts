import { readFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { AGENTS, agentById, agentFolder, chooseAgents, detectAgents, userFolder } from "../../src/lifecycle/agents.js";
import { renderAgentsDoc } from "../../src/lifecycle/agents-doc.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

const made: string[] = [];
afterEach(async () => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

describe("the agents table", () => {
  it("is what docs/agents.md shows (regenerate with npx tsx scripts/render-agents-doc.ts)", async () => {
    expect(await readFile(join(REPO_ROOT, "docs", "agents.md"), "utf8")).toBe(renderAgentsDoc());
  });

  it("has unique ids, each row citing its documentation, and former ids still name their agents", () => {
    const ids = AGENTS.map((agent) => agent.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const agent of AGENTS) expect(agent.docs).toMatch(/^https:\/\//);
    expect(agentById("agents")?.id).toBe("universal");
    expect(agentById("kiro")?.id).toBe("kiro-cli");
  });

  it("puts project installs under the root and global ones under home, universal ones in the shared folder", () => {
    const claude = agentById("claude-code")!;
    const cursor = agentById("cursor")!;
    expect(agentFolder(claude, { global: false, root: "/p", home: "/h" })).toBe("/p/.claude/skills");
    expect(agentFolder(cursor, { global: false, root: "/p", home: "/h" })).toBe("/p/.agents/skills");
    expect(agentFolder(cursor, { global: true, root: "/h", home: "/h" })).toBe("/h/.agents/skills");
    expect(agentFolder(agentById("windsurf")!, { global: true, root: "/h", home: "/h" })).toBe(
      "/h/.codeium/windsurf/skills",
    );
  });

  it("follows the variables that move an agent's user folder, ignoring relative values", () => {
    const claude = agentById("claude-code")!;
    expect(userFolder(claude, "/h", {})).toBe("/h/.claude/skills");
    expect(userFolder(claude, "/h", { CLAUDE_CONFIG_DIR: "/c" })).toBe("/c/skills");
    expect(userFolder(agentById("goose")!, "/h", { XDG_CONFIG_HOME: "relative" })).toBe("/h/.config/goose/skills");
    expect(userFolder(agentById("eve")!, "/h", {})).toBeUndefined();
  });

  it("refuses a project-only agent with --global, and an unknown id with the ids it is near", () => {
    const scope = { global: true, root: "/h", home: "/h" };
    expect(() => chooseAgents(["eve"], false, scope)).toThrow(/eve: read skills in a project only/);
    expect(chooseAgents([], true, scope).some((agent) => agent.id === "eve")).toBe(false);
    expect(() => chooseAgents(["trea"], false, scope)).toThrow(/unknown agent "trea"/);
    expect(() => chooseAgents(["qoder-c"], false, scope)).toThrow(/did you mean qoder-cn/);
  });

  it("detects the agents a project uses by their folders, and a shared folder only as 'universal'", async () => {
    const root = await mkdtemp(join(tmpdir(), "skills-kernel-agents-"));
    made.push(root);
    const scope = { global: false, root, home: root };
    expect(detectAgents(scope)).toEqual([]);
    await mkdir(join(root, ".cursor"));
    await mkdir(join(root, ".agents", "skills"), { recursive: true });
    expect(detectAgents(scope).map((agent) => agent.id)).toEqual(["cursor", "universal"]);
  });
});
