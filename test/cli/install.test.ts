import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runInstall, type InstallCliOptions } from "../../src/cli/install.js";
import type { PluginEntry } from "../../src/kernel/config.js";
import { createKernel, type SkillsKernel as Kernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import { testIo } from "../helpers/cli-in-process.js";
import { skillMd, tempDir, writeSkillFile } from "../plugins/sources/fs/files.js";

const kernels: Kernel[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function setup(withPlugin: boolean) {
  const base = await tempDir();
  const catalogRoot = join(base, "catalog");
  await writeSkillFile(catalogRoot, "pdf", skillMd("pdf"));
  const project = join(base, "configured");
  const plugins: PluginEntry[] = [["fs", { roots: [catalogRoot] }]];
  if (withPlugin) plugins.push(["install-skill", { targets: { project, user: join(base, "user") } }]);
  const kernel = await createKernel({ config: { plugins }, baseDir: base, logger: createLogger("error", () => {}) });
  kernels.push(kernel);
  return { base, project, kernel };
}

async function install(kernel: Kernel, name: string, options: Partial<InstallCliOptions>) {
  const { io, stdout, stderr } = testIo();
  const code = await runInstall(
    kernel,
    name,
    {
      to: "project",
      agents: [],
      allAgents: false,
      global: false,
      force: false,
      dryRun: false,
      strict: false,
      json: false,
      ...options,
    },
    io,
  );
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe("skills-kernel install", () => {
  it("installs into the install-skill plugin's project target", async () => {
    const { kernel, project } = await setup(true);
    const { code, stdout } = await install(kernel, "pdf", {});
    expect(code).toBe(0);
    expect(stdout).toContain(`Installed "pdf" (from catalog:pdf) into ${join(project, "pdf")}: 1 file`);
    expect(await readdir(join(project, "pdf"))).toEqual(["SKILL.md"]);
  });

  it("installs into any folder given with --to, relative to the working directory", async () => {
    const { kernel, base } = await setup(false);
    const cwd = process.cwd();
    process.chdir(base);
    try {
      const { code, stdout } = await install(kernel, "pdf", { to: "somewhere/skills", json: true });
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ path: join(base, "somewhere", "skills", "pdf"), dry_run: false });
    } finally {
      process.chdir(cwd);
    }
  });

  it("writes nothing with --dry-run, and refuses to overwrite without --force", async () => {
    const { kernel, project } = await setup(true);
    const dry = await install(kernel, "pdf", { dryRun: true });
    expect(dry.stdout).toMatch(/^Dry run: would install "pdf"/);
    await expect(readdir(project)).rejects.toThrow();
    expect((await install(kernel, "pdf", {})).code).toBe(0);
    const again = await install(kernel, "pdf", {});
    expect(again).toEqual({
      code: 1,
      stdout: "",
      stderr: `skills-kernel: ${join(project, "pdf")} already exists; ask to overwrite it (overwrite: true, or --force) to replace it\n`,
    });
    expect((await install(kernel, "pdf", { force: true })).code).toBe(0);
  });
});
