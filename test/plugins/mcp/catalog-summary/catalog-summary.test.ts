import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import { definePlugin } from "../../../../src/kernel/config.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import catalogSummary from "../../../../src/plugins/mcp/catalog-summary/index.js";
import { TOKENS } from "../../../../src/tokens.js";
import type { CatalogSource, SourceSkill } from "../../../../src/skills/types.js";

const LOADING =
  "This server's skills were still loading when this connection opened: search or list them to see which it serves.";

const skill = (name: string): SourceSkill => ({
  name,
  description: `The ${name} skill.`,
  path: name,
  frontmatter: Object.create(null),
  excerpt: "",
  rank: 0,
});

/** A source whose first load finishes only when the test opens the gate. */
function gatedSource(skills: SourceSkill[], name = "gated") {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const unused = () => Promise.reject(new Error("not in this test"));
  const source: CatalogSource = {
    name,
    description: name,
    load: async () => {
      await gate;
      return { skills, diagnostics: [] };
    },
    readDocument: unused,
    listFiles: unused,
    readFile: unused,
  };
  const plugin = definePlugin({
    name,
    provides: [TOKENS.CatalogSource],
    setup: (ctx) => ctx.contribute(TOKENS.CatalogSource, source),
  });
  return { plugin, open };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
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

  it("names the skills once the catalog has loaded them", async () => {
    const { plugin, open } = gatedSource([skill("pdf"), skill("docx")]);
    const kernel = await boot([plugin, "catalog-summary"]);
    open();
    await kernel.catalog.ready();
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(
      "This server serves 2 skills. Each is a folder of instructions (SKILL.md) for one kind of task:\n" +
        "- docx: The docx skill.\n" +
        "- pdf: The pdf skill.",
    );
    await kernel.close();
  });

  it("never waits for the load: the kernel starts and answers while it runs, and the next connection names the skills", async () => {
    const { plugin, open } = gatedSource([skill("pdf")]);
    // The gate stays shut until after the first connection: a start that waited would never return.
    const kernel = await boot([plugin, "catalog-summary"]);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(LOADING);
    open();
    await kernel.catalog.ready();
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toMatch(/^This server serves 1 skill\./);
    await kernel.close();
  });

  it("summarizes the sources that have loaded and names those still loading", async () => {
    const fast = gatedSource([skill("pdf")], "fast");
    const slow = gatedSource([skill("docx")], "slow");
    const kernel = await boot([fast.plugin, slow.plugin, "catalog-summary"]);
    fast.open();
    await until(() => kernel.catalog.list().length === 1);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(
      "This server serves 1 skill. Each is a folder of instructions (SKILL.md) for one kind of task:\n" +
        "- pdf: The pdf skill.\n" +
        "Still loading when this connection opened: slow; search or list the skills to see the rest.",
    );
    slow.open();
    await kernel.catalog.ready();
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(
      "This server serves 2 skills. Each is a folder of instructions (SKILL.md) for one kind of task:\n" +
        "- pdf: The pdf skill.\n" +
        "- docx: The docx skill.",
    );
    await kernel.close();
  });

  it("refuses waitMs, which it no longer has", async () => {
    await expect(boot([gatedSource([]).plugin, ["catalog-summary", { waitMs: 0 }]])).rejects.toThrow(/waitMs/);
  });

  it("refuses a budget below 300 characters", async () => {
    await expect(boot([gatedSource([]).plugin, ["catalog-summary", { maxChars: 299 }]])).rejects.toThrow(/maxChars/);
  });
});
