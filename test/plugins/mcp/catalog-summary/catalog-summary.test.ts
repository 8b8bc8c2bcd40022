import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import { definePlugin } from "../../../../src/kernel/config.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import catalogSummary from "../../../../src/plugins/mcp/catalog-summary/index.js";
import { TOKENS } from "../../../../src/tokens.js";
import type { SkillSource, SourceSkill } from "../../../../src/skills/types.js";

const LOADING = "This server's skills were still loading when this connection opened: search or list them to see which it serves.";

const skill = (name: string): SourceSkill => ({ name, description: `The ${name} skill.`, path: name, frontmatter: Object.create(null), excerpt: "", rank: 0 });

/** A source whose first load finishes only when the test opens the gate. */
function gatedSource(skills: SourceSkill[]) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const unused = () => Promise.reject(new Error("not in this test"));
  const source: SkillSource = {
    name: "gated",
    description: "gated",
    load: async () => {
      await gate;
      return { skills, diagnostics: [] };
    },
    readDocument: unused,
    listFiles: unused,
    readFile: unused,
  };
  const plugin = definePlugin({ name: "gated", provides: [TOKENS.SkillSource], setup: (ctx) => ctx.contribute(TOKENS.SkillSource, source) });
  return { plugin, open };
}

async function instructionsOf(kernel: SkillsKernel): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  const instructions = client.getInstructions() ?? "";
  await client.close();
  return instructions;
}

// The gated source reads no files, so the audit a source without local folders gets by default is off.
const boot = (plugins: unknown[]) =>
  createKernel({
    config: { plugins: [["skill-policy", { audit: { "*": "off" } }], ...plugins] as never },
    logger: createLogger("silent"),
    configSource: "test-config",
  });

describe("the catalog-summary plugin", () => {
  it("is a built-in", async () => {
    expect(await builtinPlugins["catalog-summary"]!()).toBe(catalogSummary);
  });

  it("waits for the first load at start, so the first connection's instructions name the skills", async () => {
    const { plugin, open } = gatedSource([skill("pdf"), skill("docx")]);
    setTimeout(open, 50);
    const kernel = await boot([plugin, "catalog-summary"]);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(
      "This server serves 2 skills. Each is a folder of instructions (SKILL.md) for one kind of task:\n" +
        "- docx: The docx skill.\n" +
        "- pdf: The pdf skill.",
    );
    await kernel.close();
  });

  it("says the skills are still loading when the load outlasts waitMs, and names them on the next connection", async () => {
    const { plugin, open } = gatedSource([skill("pdf")]);
    const kernel = await boot([plugin, ["catalog-summary", { waitMs: 0 }]]);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(LOADING);
    open();
    await kernel.catalog.ready();
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toMatch(/^This server serves 1 skill\./);
    await kernel.close();
  });

  it("stops waiting after waitMs", async () => {
    const { plugin, open } = gatedSource([skill("pdf")]);
    const kernel = await boot([plugin, ["catalog-summary", { waitMs: 20 }]]);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(LOADING);
    open();
    await kernel.close();
  });

  it("refuses a budget below 300 characters", async () => {
    await expect(boot([gatedSource([]).plugin, ["catalog-summary", { maxChars: 299 }]])).rejects.toThrow(/maxChars/);
  });
});
