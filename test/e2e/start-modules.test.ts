import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, runCli } from "../helpers/cli.js";

const RECORDER = fileURLToPath(new URL("../fixtures/bundle/record-loads.mjs", import.meta.url));

/**
 * What a stdio server over a folder loads before its first search answer: none of the code that
 * only other commands, transports or options use. A stray import between plugins pulls a whole
 * plugin, and its dependencies, into every start.
 */
/** The source files of every bundle chunk a process loaded, as each chunk's source map names them. */
async function bundledSources(record: string): Promise<string[]> {
  const chunks = (await readFile(record, "utf8")).split("\n").filter((url) => url.includes("/dist/"));
  return (
    await Promise.all(
      chunks.map(async (url) => JSON.parse(await readFile(`${fileURLToPath(url)}.map`, "utf8")).sources as string[]),
    )
  ).flat();
}

describe("the modules a stdio server loads to its first search answer", () => {
  let work: string;
  let sources: string[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-start-modules-"));
    const record = join(work, "loads.txt");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", RECORDER, CLI, "--skills-dir", join(REPO_ROOT, "examples/skills")],
      env: { ...(process.env as Record<string, string>), RECORD_LOADS: record },
      stderr: "ignore",
    });
    const client = new Client({ name: "start-modules", version: "1.0.0" });
    await client.connect(transport);
    const found = await client.callTool({ name: "search_skills", arguments: { query: "commit message" } });
    expect(JSON.stringify(found.structuredContent)).toContain("commit-message-writer");
    await client.close();
    sources = await bundledSources(record);
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("includes the fs source, the search tool and the stdio transport", () => {
    for (const part of [
      "src/plugins/sources/fs/",
      "src/plugins/tools/search-skills/",
      "src/plugins/transports/stdio/",
    ]) {
      expect(
        sources.some((source) => source.includes(part)),
        part,
      ).toBe(true);
    }
  });

  it.each([
    ["the http transport", "src/plugins/transports/http/"],
    ["the metrics plugin", "src/plugins/routes/metrics/"],
    ["the catalog page", "src/plugins/routes/catalog-page/"],
    ["the git source", "src/plugins/sources/git/"],
    ["the lifecycle CLI", "src/cli/lifecycle/"],
    ["jose (sign-in)", "node_modules/jose/"],
    ["prom-client", "node_modules/prom-client/"],
    ["markdown-it", "node_modules/markdown-it/"],
    // The warn audit's engine loads with the first skill read, not with every start.
    ["the audit's rules", "src/skills/audit/rules/"],
    ["unhomoglyph (the audit's confusables)", "node_modules/unhomoglyph/"],
  ])("leaves out %s", (_what, part) => {
    expect(sources.filter((source) => source.includes(part))).toEqual([]);
  });
});

describe("the modules `skills-kernel list` loads", () => {
  it("calls the tool in process: no MCP client", async () => {
    const work = await mkdtemp(join(tmpdir(), "skills-kernel-list-modules-"));
    try {
      const record = join(work, "loads.txt");
      const listed = await runCli(
        ["list", "--format", "names-only", "--skills-dir", join(REPO_ROOT, "examples/skills")],
        {
          env: { ...process.env, NODE_OPTIONS: `--import ${RECORDER}`, RECORD_LOADS: record },
        },
      );
      expect(listed).toMatchObject({ code: 0, stdout: expect.stringContaining("commit-message-writer") });
      const sources = await bundledSources(record);
      expect(sources.some((source) => source.includes("src/plugins/tools/list-skills/"))).toBe(true);
      expect(sources.filter((source) => source.includes("@modelcontextprotocol/client/"))).toEqual([]);
      // It builds no MCP server: the SDK's server and the plugins that only add to a server stay
      // out (src/cli/in-process.ts).
      for (const part of [
        "@modelcontextprotocol/server/",
        "src/kernel/mcp-server.ts",
        "src/plugins/mcp/",
        "src/plugins/transports/stdio/line-transport.ts",
      ])
        expect(
          sources.filter((source) => source.includes(part)),
          part,
        ).toEqual([]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  // The search index is most of a cold start's CPU and listing never reads it. The index's build
  // is logged at debug whoever asks for it; `search` is the control that the line is still written.
  it("builds or loads no search index, as `search` does", async () => {
    // A search builds the index, or loads the one an earlier run saved in the cache folder.
    const indexed = /search-skills\] debug: (indexed|loaded the saved index of) \d+ skills/;
    const dir = join(REPO_ROOT, "examples/skills");
    const listed = await runCli(["list", "--format", "names-only", "--log-level", "debug", "--skills-dir", dir]);
    expect(listed).toMatchObject({ code: 0, stdout: expect.stringContaining("commit-message-writer") });
    expect(listed.stderr).not.toMatch(indexed);
    const searched = await runCli(["search", "commit message", "--log-level", "debug", "--skills-dir", dir]);
    expect(searched).toMatchObject({ code: 0, stdout: expect.stringContaining("commit-message-writer") });
    expect(searched.stderr).toMatch(indexed);
  });
});
