import { readFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { AGENTS, agentFolder, detectAgents } from "../../src/lifecycle/agents.js";
import { renderAgentsDoc } from "../../src/lifecycle/agents-doc.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

const made: string[] = [];
afterEach(async () => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

describe("the agents table", () => {
  it("is what docs/agents.md shows (regenerate with npx tsx scripts/render-agents-doc.ts)", async () => {
    expect(await readFile(join(REPO_ROOT, "docs", "agents.md"), "utf8")).toBe(renderAgentsDoc());
  });

  it("has every agent the issue names, each row citing its documentation", () => {
    const ids = AGENTS.map((agent) => agent.id);
    for (const id of ["agents", "claude-code", "codex", "cursor", "github-copilot", "gemini-cli", "opencode", "goose", "windsurf", "cline", "amp", "kiro", "roo", "qwen-code"]) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const agent of AGENTS) expect(agent.docs).toMatch(/^https:\/\//);
  });

  it("puts project installs under the root and global ones under home", () => {
    const cursor = AGENTS.find((agent) => agent.id === "cursor")!;
    expect(agentFolder(cursor, { global: false, root: "/p", home: "/h" })).toBe("/p/.cursor/skills");
    expect(agentFolder(cursor, { global: true, root: "/h", home: "/h" })).toBe("/h/.cursor/skills");
  });

  it("detects the agents a project uses by their folders, and a shared folder only as 'agents'", async () => {
    const root = await mkdtemp(join(tmpdir(), "skills-kernel-agents-"));
    made.push(root);
    const scope = { global: false, root, home: root };
    expect(detectAgents(scope)).toEqual([]);
    await mkdir(join(root, ".cursor"));
    await mkdir(join(root, ".agents", "skills"), { recursive: true });
    expect(detectAgents(scope).map((agent) => agent.id)).toEqual(["agents", "cursor"]);
  });
});
