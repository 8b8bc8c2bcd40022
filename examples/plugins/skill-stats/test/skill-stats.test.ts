import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { createKernel, createLogger, type SkillsKernel } from "skills-kernel";
import { memorySource, skillMd, startTestKernel } from "skills-kernel/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import skillStats from "../src/index.js";

const PLATFORM = { claims: { groups: ["platform"] } };

let dir: string;
let kernel: SkillsKernel;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skill-stats-"));
  const files: Record<string, string> = {
    "team/a/SKILL.md": "---\nname: a\ndescription: First.\n---\n",
    "team/b/SKILL.md": "---\nname: b\ndescription: Second.\n---\n",
    "team/broken/SKILL.md": "not a skill\n",
    "mine/c/SKILL.md": "---\nname: c\ndescription: Third.\n---\n",
    "secret/hidden/SKILL.md": "---\nname: hidden\ndescription: For the platform team only.\n---\n",
  };
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  kernel = await createKernel({
    config: {
      plugins: [
        [
          "fs",
          { roots: ["./team", "./mine", { path: "./secret", source: "secret", visibleTo: PLATFORM }], watch: false },
        ],
        skillStats,
      ],
    },
    baseDir: dir,
    logger: createLogger("silent"),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  client = new Client({ name: "skill-stats-test", version: "1.0.0" });
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await kernel.close();
  };
});

afterAll(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

describe("the skill_stats tool", () => {
  it("is listed with its input schema", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "skill_stats");
    expect(tool?.inputSchema.properties).toHaveProperty("source");
  });

  it("counts the skills of every source and the ones skipped", async () => {
    const result = await client.callTool({ name: "skill_stats", arguments: {} });
    expect(result.structuredContent).toEqual({ total: 3, bySource: { team: 2, mine: 1 }, skipped: 1 });
  });

  it("counts only what its caller may see: a hidden source is not there for a caller outside it", async () => {
    const anonymous = await client.callTool({ name: "skill_stats", arguments: {} });
    expect(anonymous.structuredContent).toEqual({ total: 3, bySource: { team: 2, mine: 1 }, skipped: 1 });
    const asking = await client.callTool({ name: "skill_stats", arguments: { source: "secret" } });
    expect(asking.content).toEqual([{ type: "text", text: 'no source named "secret"; sources: team, mine' }]);
    const platform = { subject: "ada", scopes: [], claims: { groups: ["platform"] } };
    const member = await kernel.callTool("skill_stats", {}, { identity: platform });
    expect(member.structuredContent).toEqual({ total: 4, bySource: { team: 2, mine: 1, secret: 1 }, skipped: 1 });
  });

  it("finds nothing at all when the only source is hidden from its caller", async () => {
    const hidden = memorySource(
      "secret",
      { "hidden/SKILL.md": skillMd("hidden", "Platform only.") },
      { visibleTo: PLATFORM },
    );
    const anonymous = await startTestKernel({ plugins: [hidden, skillStats] });
    const member = await startTestKernel({
      plugins: [hidden, skillStats],
      identity: { subject: "ada", scopes: [], ...PLATFORM },
    });
    try {
      expect((await anonymous.callTool("skill_stats")).structuredContent).toEqual({
        total: 0,
        bySource: {},
        skipped: 0,
      });
      expect((await member.callTool("skill_stats")).structuredContent).toEqual({
        total: 1,
        bySource: { secret: 1 },
        skipped: 0,
      });
    } finally {
      await anonymous.close();
      await member.close();
    }
  });

  it("counts one source, and names the sources when asked for an unknown one", async () => {
    expect((await client.callTool({ name: "skill_stats", arguments: { source: "mine" } })).structuredContent).toEqual({
      total: 1,
      bySource: { mine: 1 },
      skipped: 0,
    });
    const unknown = await client.callTool({ name: "skill_stats", arguments: { source: "nope" } });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([{ type: "text", text: 'no source named "nope"; sources: team, mine' }]);
  });

  it("refuses arguments its schema does not accept", async () => {
    const result = await client.callTool({ name: "skill_stats", arguments: { source: "" } });
    expect(result.isError).toBe(true);
  });
});
