import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";
import { importFromRuntimes, MCPB_TOOL } from "../helpers/runtimes.js";

/** The part of the mcpb library this test uses: the command Claude Desktop works out from a manifest. */
interface Mcpb {
  getMcpConfigForManifest(options: {
    manifest: unknown;
    extensionPath: string;
    systemDirs: Record<string, string>;
    userConfig: Record<string, unknown>;
    pathSeparator: string;
  }): Promise<{ command: string; args?: string[]; env?: Record<string, string> } | undefined>;
}

// `npm run pack:mcpb`, then the bundle as Claude Desktop runs it: unpacked into a folder of its
// own, its command worked out by the mcpb library's own substitution, started with nothing installed.
describe("the MCP Bundle (skills-kernel.mcpb)", () => {
  let work: string;
  let unpacked: string;
  let packOutput: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-mcpb-"));
    const bundle = join(work, "skills-kernel.mcpb");
    const packed = spawnSync(process.execPath, ["scripts/pack-mcpb.mjs", bundle], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
    packOutput = packed.stdout + packed.stderr;
    expect(packed.status, packOutput).toBe(0);
    expect(packOutput).not.toContain("test runtimes");
    unpacked = join(work, "unpacked");
    for (const [path, bytes] of Object.entries(unzipSync(await readFile(bundle)))) {
      if (path.endsWith("/")) continue;
      await mkdir(dirname(join(unpacked, path)), { recursive: true });
      await writeFile(join(unpacked, path), bytes);
    }
  }, 180_000);
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("passes mcpb validate, and ships the bundle, its entry and the icon, without maps or declarations", async () => {
    expect(packOutput).toContain("Manifest schema validation passes!");
    const manifest = JSON.parse(await readFile(join(unpacked, "manifest.json"), "utf8")) as {
      version: string;
      icon: string;
    };
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(manifest.version).toBe(pkg.version);
    const files = Object.keys(unzipSync(await readFile(join(work, "skills-kernel.mcpb"))));
    expect(files).toEqual(
      expect.arrayContaining([
        "manifest.json",
        "icon.png",
        "server/cli.js",
        "server/mcpb-entry.js",
        "server/package.json",
      ]),
    );
    expect(files.filter((file) => /\.map$|\.d\.ts$|node_modules/.test(file))).toEqual([]);
  });

  it("serves the folders a user picked, with the optional settings left unset, and nothing installed", async () => {
    const manifest: unknown = JSON.parse(await readFile(join(unpacked, "manifest.json"), "utf8"));
    const { getMcpConfigForManifest } = (await importFromRuntimes("@anthropic-ai/mcpb", MCPB_TOOL)) as Mcpb;
    const second = join(work, "more-skills");
    await mkdir(join(second, "tide-tables"), { recursive: true });
    await writeFile(
      join(second, "tide-tables/SKILL.md"),
      "---\nname: tide-tables\ndescription: Read tide tables for a harbour.\n---\nLook up the harbour.\n",
    );
    const folders = [join(REPO_ROOT, "examples/skills"), second];
    const config = await getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: { HOME: work, DESKTOP: work, DOCUMENTS: work, DOWNLOADS: work },
      userConfig: { skills_dirs: folders },
      pathSeparator: "/",
    });
    expect(config?.command).toBe("node");
    // Claude Desktop runs `node` from its own runtime: the Node running the tests here. The working
    // folder is / and the environment holds only PATH and what the manifest sets.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: config?.args ?? [],
      cwd: "/",
      env: { PATH: process.env.PATH ?? "", HOME: work, ...config?.env },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "mcpb-e2e", version: "0" });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: "skills-kernel", title: "Skills Kernel" });
      const listed = await client.callTool({ name: "list_skills", arguments: {} });
      const text = JSON.stringify(listed.structuredContent);
      // A skill from each folder.
      expect(text).toContain("changelog-curator");
      expect(text).toContain("tide-tables");
      expect(listed.isError ?? false).toBe(false);
      const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes" } });
      expect(found.structuredContent).toMatchObject({
        results: expect.arrayContaining([expect.objectContaining({ id: "changelog-curator" })]),
      });
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/error|catalog|--git/i);
  });
});
