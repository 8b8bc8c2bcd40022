import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { strToU8, zipSync } from "fflate";
import { createKernel, createLogger, type SkillsKernel } from "skills-kernel";
import { afterEach, describe, expect, it } from "vitest";
import zipPlugin from "../src/index.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A .zip holding `files` (path -> text) in a temp folder; returns the folder. */
async function archive(name: string, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "zip-source-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    path.join(dir, name),
    zipSync(Object.fromEntries(Object.entries(files).map(([p, text]) => [p, strToU8(text)]))),
  );
  return dir;
}

/** The kernel with the zip source and the three read tools, and an MCP client talking to it. */
async function boot(baseDir: string, archives: string[]): Promise<{ kernel: SkillsKernel; client: Client }> {
  const kernel = await createKernel({
    config: { plugins: [[zipPlugin, { archives }], "list-skills", "read-skill", "fetch-skill-files"] },
    baseDir,
    logger: createLogger("silent"),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "zip-source-test", version: "1.0.0" });
  await client.connect(clientSide);
  cleanups.push(async () => {
    await client.close();
    await kernel.close();
  });
  return { kernel, client };
}

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps.\n`;

describe("the zip source plugin", () => {
  it("serves each folder of the archive holding a SKILL.md, with its files", async () => {
    const dir = await archive("team.zip", {
      "pdf/SKILL.md": skill("pdf", "Fill in PDF forms."),
      "pdf/scripts/fill.py": "print('fill')\n",
      "nested/deeper/csv/SKILL.md": skill("csv", "Clean CSV files."),
    });
    const { kernel, client } = await boot(dir, ["./team.zip"]);
    await kernel.catalog.ready();
    expect(
      kernel.catalog
        .list()
        .map((s) => `${s.source}:${s.name}`)
        .sort(),
    ).toEqual(["team:csv", "team:pdf"]);

    const read = await client.callTool({ name: "read_skill", arguments: { skill_name: "pdf" } });
    expect(read.isError).toBeFalsy();
    expect(JSON.stringify(read.structuredContent)).toContain("scripts/fill.py");

    const fetched = await client.callTool({
      name: "fetch_skill_files",
      arguments: { skill_name: "pdf", file_paths: ["scripts/fill.py", "../csv/SKILL.md"] },
    });
    expect(JSON.stringify(fetched.structuredContent)).toContain("print('fill')");
    expect(JSON.stringify(fetched.structuredContent)).not.toContain("Clean CSV files");
  });

  it("reports a broken skill and ignores entries that would escape the archive", async () => {
    const dir = await archive("mixed.zip", {
      "good/SKILL.md": skill("good", "A good skill."),
      "broken/SKILL.md": "no frontmatter at all\n",
      "../escape/SKILL.md": skill("escape", "Outside the archive."),
    });
    const { kernel } = await boot(dir, ["mixed.zip"]);
    await kernel.catalog.ready();
    expect(kernel.catalog.list().map((s) => s.name)).toEqual(["good"]);
    const codes = kernel.catalog.diagnostics().map((d) => `${d.path} ${d.code}`);
    expect(codes).toContain("../escape/SKILL.md unsafe-path");
    expect(codes.some((c) => c.startsWith("broken/SKILL.md "))).toBe(true);
  });

  it("fails the boot, naming the file, when an archive is missing", async () => {
    const dir = await archive("a.zip", {});
    await expect(boot(dir, ["./nope.zip"])).rejects.toThrow(`archive ${path.join(dir, "nope.zip")} does not exist`);
  });

  it("refuses an archive that unpacks past its limit", async () => {
    const dir = await archive("big.zip", { "big/SKILL.md": skill("big", "Big."), "big/blob.txt": "x".repeat(10_000) });
    const kernel = await createKernel({
      config: { plugins: [[zipPlugin, { archives: ["big.zip"], maxUnpackedBytes: 5_000 }], "list-skills"] },
      baseDir: dir,
      logger: createLogger("silent"),
    });
    cleanups.push(() => kernel.close());
    await kernel.catalog.ready().catch(() => undefined);
    expect(kernel.catalog.list()).toEqual([]);
  });
});
