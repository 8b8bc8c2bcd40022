import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** A source whose first load finishes only when the test opens the gate; `local` gives it a local folder. */
function gatedSource(skills: SourceSkill[], name = "gated", local = false) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const unused = () => Promise.reject(new Error("not in this test"));
  const source: CatalogSource = {
    name,
    description: name,
    ...(local && { capabilities: { localFolders: [`/skills/${name}`] } }),
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

/** A transport that only hands the test what the kernel gives transports. */
const probed: { settled?: () => Promise<void> } = {};
const probeTransport = definePlugin({
  name: "probe",
  setup: (ctx) =>
    ctx.contribute(TOKENS.Transport, {
      name: "probe",
      async start({ instructionsSettled }) {
        probed.settled = instructionsSettled;
        return { closed: new Promise<void>(() => {}), close: async () => {} };
      },
    }),
});

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

  it("never holds up the kernel's start or a server built on demand; the next one names the skills", async () => {
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
        "Still loading when this connection opened: slow; their skills join as they load (the resource " +
        "skills-kernel://catalog/summary summarizes the catalog as it is then), and search finds them.",
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

  it("has a connection's first server wait for the local sources, within waitForLocalMs, and never for a remote one", async () => {
    const local = gatedSource([skill("pdf")], "local", true);
    const remote = gatedSource([skill("docx")], "remote");
    const kernel = await boot([local.plugin, remote.plugin, probeTransport, ["catalog-summary", { diskCache: false }]]);
    await kernel.serve("probe");
    let settled = false;
    const waiting = probed.settled!().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    local.open();
    await waiting;
    expect(kernel.catalog.loading()).toEqual(["remote"]);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toMatch(/^This server serves 1 skill\.[^]*- pdf: /);
    remote.open();
    await kernel.close();
  });

  it("stops waiting for a local source after waitForLocalMs", async () => {
    const local = gatedSource([skill("pdf")], "local", true);
    const kernel = await boot([
      local.plugin,
      probeTransport,
      ["catalog-summary", { waitForLocalMs: 20, diskCache: false }],
    ]);
    await kernel.serve("probe");
    await probed.settled!();
    expect(kernel.catalog.loading()).toEqual(["local"]);
    expect((await instructionsOf(kernel)).split("\n\n")[1]).toBe(LOADING);
    local.open();
    await kernel.close();
  });

  it("gives, on a warm start, the summary the last run kept, at once, and keeps this run's for the next", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), "catalog-summary-kept-"));
    try {
      const summary = ["catalog-summary", { cacheDir }];
      const first = gatedSource([skill("pdf")], "local", true);
      const cold = await boot([first.plugin, probeTransport, summary]);
      await cold.serve("probe");
      first.open();
      await probed.settled!();
      await cold.close();
      expect(await readdir(join(cacheDir, "summaries"))).toHaveLength(1);

      // Its gate never opens: the opening waits for nothing, and names what the last run loaded.
      const again = gatedSource([skill("pdf")], "local", true);
      const warm = await boot([again.plugin, probeTransport, summary]);
      await warm.serve("probe");
      await probed.settled!();
      expect(warm.catalog.loading()).toEqual(["local"]);
      expect((await instructionsOf(warm)).split("\n\n")[1]).toMatch(/^This server serves 1 skill\.[^]*- pdf: /);
      again.open();
      await warm.catalog.ready();
      await warm.close();

      // Other sources: nothing kept for them, so the opening waits for them.
      const other = gatedSource([skill("docx")], "elsewhere", true);
      const fresh = await boot([other.plugin, probeTransport, ["catalog-summary", { cacheDir, waitForLocalMs: 20 }]]);
      await fresh.serve("probe");
      await probed.settled!();
      expect((await instructionsOf(fresh)).split("\n\n")[1]).toBe(LOADING);
      other.open();
      await fresh.close();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("ignores a kept summary that is not one it wrote for these sources", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), "catalog-summary-kept-"));
    try {
      const summary = ["catalog-summary", { cacheDir, waitForLocalMs: 20 }];
      const first = gatedSource([skill("pdf")], "local", true);
      const cold = await boot([first.plugin, probeTransport, summary]);
      await cold.serve("probe");
      first.open();
      await probed.settled!();
      await cold.close();
      const [file] = await readdir(join(cacheDir, "summaries"));
      for (const body of ["{", JSON.stringify({ key: "another", text: "Forged." }), JSON.stringify({ text: 1 })]) {
        await writeFile(join(cacheDir, "summaries", file!), body);
        const again = gatedSource([skill("pdf")], "local", true);
        const warm = await boot([again.plugin, probeTransport, summary]);
        await warm.serve("probe");
        await probed.settled!();
        expect((await instructionsOf(warm)).split("\n\n")[1]).toBe(LOADING);
        again.open();
        await warm.close();
      }
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("summarizes every source of a catalog larger than its budget, and serves the summary as a resource", async () => {
    const sources = ["alpha", "beta", "gamma"].map((name) =>
      gatedSource(
        Array.from({ length: 40 }, (_, i) => ({
          ...skill(`${name}-${i}`),
          description: `Handles ${name} task ${i}, described at the length real skills describe themselves at.`,
        })),
        name,
        true,
      ),
    );
    const kernel = await boot([...sources.map((s) => s.plugin), "search-skills", "catalog-summary"]);
    for (const source of sources) source.open();
    await kernel.catalog.ready();
    const summary = (await instructionsOf(kernel)).split("\n\n")[1]!;
    expect(summary.length).toBeLessThanOrEqual(4_000);
    expect(summary).toMatch(/^This server serves 120 skills from 3 sources, more than fit here\./);
    for (const name of ["alpha", "beta", "gamma"]) expect(summary).toContain(`- ${name} (40 skills):`);
    expect(summary.split("\n").at(-1)).toBe(
      "To find the skill for a task, call search_skills with a few words of the task.",
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await kernel.createMcpServer().connect(serverSide);
    const client = new Client({ name: "test", version: "0" });
    await client.connect(clientSide);
    const read = await client.readResource({ uri: "skills-kernel://catalog/summary" });
    const text = (read.contents[0] as { text: string }).text;
    // The resource's budget lists all 120 at once.
    expect(text).toMatch(/^This server serves 120 skills\. /);
    await client.close();
    await kernel.close();
  });

  it("favours the skills a SkillPopularity says are used most", async () => {
    const names = ["csv-a", "csv-b", "csv-c", "csv-d"];
    const source = gatedSource(
      names.map((name) => ({ ...skill(name), description: "Reads and writes CSV tables. ".repeat(8) })),
      "tables",
      true,
    );
    const usage = definePlugin({
      name: "usage",
      provides: [TOKENS.SkillPopularity],
      setup: (ctx) => ctx.provide(TOKENS.SkillPopularity, (s) => (s.id === "csv-d" ? 40 : 0)),
    });
    const kernel = await boot([source.plugin, usage, ["catalog-summary", { maxChars: 600 }]]);
    source.open();
    await kernel.catalog.ready();
    const summary = (await instructionsOf(kernel)).split("\n\n")[1]!;
    expect(summary).toMatch(/more than fit here/);
    expect(summary.split("\n").filter((line) => line.startsWith("  - "))[0]).toMatch(/^ {2}- csv-d: /);
    await kernel.close();
  });

  it("refuses waitMs, which it no longer has", async () => {
    await expect(boot([gatedSource([]).plugin, ["catalog-summary", { waitMs: 0 }]])).rejects.toThrow(/waitMs/);
  });

  it("refuses a budget below 300 characters", async () => {
    await expect(boot([gatedSource([]).plugin, ["catalog-summary", { maxChars: 299 }]])).rejects.toThrow(/maxChars/);
  });
});
