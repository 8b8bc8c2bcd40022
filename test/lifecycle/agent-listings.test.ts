import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentListings, skillsIn } from "../../src/lifecycle/agent-listings.js";

let root: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agent-listings-root-"));
  home = await mkdtemp(join(tmpdir(), "agent-listings-home-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

/** `count` skills in `folder`, each described in about `chars` characters. */
async function plant(folder: string, count: number, chars: number, frontmatter = ""): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    await mkdir(join(folder, name), { recursive: true });
    const description =
      `Does job ${i}. ${"Use it for that job and nothing else. ".repeat(Math.ceil(chars / 38))}`.slice(0, chars);
    await writeFile(
      join(folder, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n${frontmatter}---\n# ${name}\n`,
    );
  }
}

describe("each agent's native skill listing", () => {
  it("is measured for the agents whose folders hold skills, against Claude Code's documented budget", async () => {
    await plant(join(root, ".claude", "skills"), 40, 300);
    const listings = await agentListings(root, home, {});
    const claude = listings.find((listing) => listing.agent === "claude-code")!;
    expect(claude).toMatchObject({ skills: 40, folders: [join(root, ".claude", "skills")] });
    expect(claude.budget).toMatchObject({ chars: 8_000 });
    expect(claude.budget!.sources[0]).toBe("https://code.claude.com/docs/en/skills#skill-descriptions-are-cut-short");
    expect(claude.chars).toBeGreaterThan(12_000);
    // Names stay; at least enough descriptions go to fit 8,000 characters.
    expect(claude.overflow!.descriptionsLost).toBeGreaterThanOrEqual(14);
    expect(claude.overflow!.skillsDropped).toEqual([]);
    expect(claude.overflow!.outcome).toMatch(/listed by name alone.*least-invoked/);
    // Only agents that read .claude/skills: no other agent's folder holds a skill here.
    expect(listings.map((listing) => listing.agent)).toEqual(["claude-code"]);
  });

  it("takes SLASH_COMMAND_TOOL_CHAR_BUDGET as Claude Code does, and fits within it", async () => {
    await plant(join(root, ".claude", "skills"), 40, 300);
    const [claude] = await agentListings(root, home, { SLASH_COMMAND_TOOL_CHAR_BUDGET: "60000" });
    expect(claude!.budget).toMatchObject({ chars: 60_000, basis: "SLASH_COMMAND_TOOL_CHAR_BUDGET is set to 60000" });
    expect(claude!.overflow).toBeUndefined();
  });

  it("cuts Codex's descriptions before it leaves a skill out, and counts hosts with no documented budget", async () => {
    await plant(join(root, ".agents", "skills"), 30, 300);
    const listings = await agentListings(root, home, {});
    const codex = listings.find((listing) => listing.agent === "codex")!;
    expect(codex.overflow!.outcome).toMatch(/^\d+ of 30 descriptions are cut to \d+ characters$/);
    expect(codex.overflow!.skillsDroppedCount).toBe(0);
    const copilot = listings.find((listing) => listing.agent === "github-copilot")!;
    expect(copilot.budget).toBeUndefined();
    expect(copilot.undocumentedCut).toBe("https://github.com/github/copilot-cli/issues/1464");
    const amp = listings.find((listing) => listing.agent === "amp")!;
    expect([amp.skills, amp.budget, amp.overflow]).toEqual([30, undefined, undefined]);
  });

  it("names what OpenClaw leaves out: past 150 skills, and the last by name once even names do not fit", async () => {
    await plant(join(root, "skills"), 160, 40);
    const openclaw = (await agentListings(root, home, {})).find((listing) => listing.agent === "openclaw")!;
    expect(openclaw.overflow!.skillsDropped.slice(-10)).toEqual(
      Array.from({ length: 10 }, (_, i) => `skill-${150 + i}`),
    );
    expect(openclaw.overflow!.skillsDropped[0]! < "skill-150").toBe(true);
  });

  it("reads the user's folders too, a name once, and leaves out skills the model is not offered", async () => {
    await plant(join(home, ".claude", "skills"), 3, 80);
    await plant(join(root, ".claude", "skills"), 2, 80, "disable-model-invocation: true\n");
    const [claude] = await agentListings(root, home, { CLAUDE_CONFIG_DIR: "" });
    expect(claude).toMatchObject({ skills: 3, folders: [join(home, ".claude", "skills")] });
    expect(await skillsIn(join(root, "missing"))).toEqual([]);
  });
});
