import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { installSkill } from "../../../../src/lifecycle/install.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";
import { boot } from "../validate-skill/kernel.js";

/** A catalog to install from and a served project target (which does not exist yet). */
async function setup(install: Record<string, unknown> = {}) {
  const base = await tempDir();
  const catalogRoot = join(base, "catalog");
  const project = join(base, "project", ".claude", "skills");
  await writeSkillFile(catalogRoot, "outer", skillMd("outer"));
  await writeFile(join(catalogRoot, "outer", "notes.md"), "notes");
  const plugins: PluginEntry[] = [
    ["fs", { roots: [{ path: project, source: "project", optional: true }, catalogRoot] }],
    ["install-skill", { targets: { project, user: join(base, "user") }, ...install }],
  ];
  const booted = await boot(plugins, base);
  return {
    base,
    catalogRoot,
    project,
    ...booted,
    install: (args: Record<string, unknown>) => booted.call("install_skill", args),
  };
}

/** A pid that no process has: a child that ran and exited. */
function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }),
  );
}

describe("install_skill targets (#14 item 4)", () => {
  it("refuses a target root that is a symbolic link, and writes nothing through it", async () => {
    const { base, project, install } = await setup();
    const home = join(base, "home");
    await mkdir(join(home, "outer"), { recursive: true });
    await writeFile(join(home, "outer", "thesis.tex"), "years of work");
    await mkdir(join(base, "project", ".claude"), { recursive: true });
    await symlink(home, project);
    const answer = await install({ skill_name: "outer", target: "project", overwrite: true });
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(
      `install_skill: refusing to install into ${project}: ${project} is a symbolic link, and install never writes through one ` +
        "(it could lead anywhere); name the folder it leads to instead",
    );
    expect(await readFile(join(home, "outer", "thesis.tex"), "utf8")).toBe("years of work");
    expect(await readdir(home)).toEqual(["outer"]);
  });

  it("refuses a target whose parent folder is a symbolic link", async () => {
    const { base, project, install } = await setup();
    await mkdir(join(base, "elsewhere"), { recursive: true });
    await mkdir(join(base, "project"), { recursive: true });
    await symlink(join(base, "elsewhere"), join(base, "project", ".claude"));
    const answer = await install({ skill_name: "outer", target: "project" });
    expect(answer.text).toMatch(/is a symbolic link, and install never writes through one/);
    expect(await readdir(join(base, "elsewhere"))).toEqual([]);
    expect(project).toContain(".claude");
  });

  it("overwrites only a folder that holds a SKILL.md", async () => {
    const { project, install } = await setup();
    await mkdir(join(project, "outer"), { recursive: true });
    await writeFile(join(project, "outer", "thesis.tex"), "years of work");
    const answer = await install({ skill_name: "outer", target: "project", overwrite: true });
    expect(answer.text).toBe(
      `install_skill: ${join(project, "outer")} holds no SKILL.md, so it is not an installed skill; install will not replace it`,
    );
    expect(await readdir(join(project, "outer"))).toEqual(["thesis.tex"]);
  });

  it("refuses a destination that is a link or a file", async () => {
    const { base, project, install } = await setup();
    await mkdir(project, { recursive: true });
    await writeSkillFile(base, "mine", skillMd("outer"));
    await symlink(join(base, "mine"), join(project, "outer"));
    const linked = await install({ skill_name: "catalog:outer", target: "project", overwrite: true });
    expect(linked.text).toBe(
      `install_skill: ${join(project, "outer")} is a symbolic link; install never replaces or writes through one`,
    );
    expect(await readdir(join(base, "mine"))).toEqual(["SKILL.md"]);
  });
});

describe("install_skill after a killed install (#14 item 3)", () => {
  it("never serves a temporary folder, and cleans up stale ones before installing", async () => {
    const { project, install, kernel } = await setup();
    const pid = deadPid();
    // What kill -9 mid-copy left: a half copy with a nested skill, from a process that is gone.
    await writeSkillFile(project, `.installing-${pid}-abcdef-outer/references/nested`, skillMd("nested"));
    await writeSkillFile(project, `.installing-${pid}-abcdef-outer`, "# half");
    await kernel.catalog.refresh();
    expect(kernel.catalog.list().map((skill) => skill.id)).toEqual(["outer"]);

    const answer = await install({ skill_name: "outer", target: "project" });
    expect(answer.isError).toBe(false);
    expect(answer.structured.warnings).toContain(
      `removed .installing-${pid}-abcdef-outer, left by an interrupted install`,
    );
    expect(await readdir(project)).toEqual(["outer"]);
    expect(
      kernel.catalog
        .list()
        .map((skill) => skill.qualifiedId)
        .sort(),
    ).toEqual(["catalog:outer", "project:outer"]);
  });

  it("moves a skill set aside by a killed replacement back into place", async () => {
    const { project, install } = await setup();
    await writeSkillFile(project, `.replaced-${deadPid()}-0123ab-mine`, skillMd("mine"));
    const answer = await install({ skill_name: "outer", target: "project" });
    expect(answer.structured.warnings).toContain(
      `moved ${join(project, "mine")} back into place: an interrupted install had moved it aside`,
    );
    expect((await readdir(project)).sort()).toEqual(["mine", "outer"]);
    expect(await readFile(join(project, "mine", "SKILL.md"), "utf8")).toBe(skillMd("mine"));
  });

  it("leaves the temporary folders of an install still running alone", async () => {
    const { project, install } = await setup();
    const running = `.installing-${process.ppid}-abcdef-other`;
    await mkdir(join(project, running), { recursive: true });
    await install({ skill_name: "outer", target: "project" });
    expect((await readdir(project)).sort()).toEqual([running, "outer"].sort());
  });
});

describe("install_skill reports what it leaves out (#14 items 7 and 8)", () => {
  it("lists every file it does not copy, with the reason, instead of claiming a complete copy", async () => {
    const { base, catalogRoot, project, install } = await setup();
    const folder = join(catalogRoot, "outer");
    await writeFile(join(folder, "back\\slash.md"), "x");
    await writeFile(join(folder, "100%25.md"), "x");
    await writeFile(join(folder, "tab\there.md"), "x");
    execFileSync("mkfifo", [join(folder, "pipe")]);
    await writeFile(join(base, "outside.md"), "outside");
    await symlink(join(base, "outside.md"), join(folder, "out-link.md"));
    await mkdir(join(folder, "node_modules"));
    await writeFile(join(folder, "node_modules", "dep.js"), "x");

    const answer = await install({ skill_name: "outer", target: "project" });
    expect(answer.isError).toBe(false);
    expect(answer.structured.files).toEqual(["SKILL.md", "notes.md"]);
    expect(answer.structured.left_out).toEqual([
      { path: "100%25.md", reason: "the path holds a percent-encoded '.', '/', '\\', NUL or '%'" },
      { path: "back\\slash.md", reason: 'the path holds a backslash; separate folders with "/"' },
      { path: "node_modules/", reason: "node_modules and .git folders are not served" },
      { path: "out-link.md", reason: "a link that leads out of the skill folder, or not to a file" },
      { path: "pipe", reason: "not a regular file (a FIFO, socket or device)" },
      { path: "tab\\there.md", reason: "the path holds a control character" },
    ]);
    expect(answer.text).toContain("Left out:\n  100%25.md: ");
    expect((await readdir(join(project, "outer"))).sort()).toEqual(["SKILL.md", "notes.md"]);
  });

  it("leaves out files named like credentials unless includeSecretFiles is set", async () => {
    const secrets = [".env", ".env.local", "certs/server.pem", "deploy.key", ".npmrc", "keys/id_rsa", ".ssh/config"];
    const shared = [".env.example", "keys/id_rsa.pub", "notes.md"];
    const plain = await setup();
    for (const path of [...secrets, ...shared])
      await writeSkillFile(plain.catalogRoot, join("outer", path, ".."), "SECRET=hunter2", path.split("/").at(-1));
    const answer = await plain.install({ skill_name: "outer", target: "project" });
    expect(answer.structured.files).toEqual(["SKILL.md", ".env.example", "keys/id_rsa.pub", "notes.md"]);
    expect(answer.structured.left_out.map((file: { path: string }) => file.path)).toEqual([...secrets].sort());
    expect(answer.structured.left_out[0].reason).toMatch(/usually holds secrets .*includeSecretFiles/);

    const opted = await setup({ includeSecretFiles: true });
    for (const path of [...secrets, ...shared])
      await writeSkillFile(opted.catalogRoot, join("outer", path, ".."), "SECRET=hunter2", path.split("/").at(-1));
    const all = await opted.install({ skill_name: "outer", target: "project" });
    expect(all.structured.left_out).toEqual([]);
    expect(all.structured.files).toHaveLength(1 + secrets.length + shared.length);
  });
});

describe("install_skill cancellation (#14 item 7)", () => {
  it("stops when its signal is aborted mid-copy, and leaves the target as it was", async () => {
    const { catalogRoot, project, kernel } = await setup();
    for (let i = 0; i < 40; i++) await writeFile(join(catalogRoot, "outer", `file-${i}.md`), `file ${i}`);
    await mkdir(project, { recursive: true });
    const controller = new AbortController();
    let written = 0;
    const write = async (path: string, bytes: Uint8Array) => {
      if (++written === 5) controller.abort();
      await writeFile(path, bytes, { flag: "wx" });
    };
    const request = { skill: "outer", targetRoot: project, overwrite: false, dryRun: false, signal: controller.signal };
    await expect(installSkill(kernel.catalog, { maxFiles: 100, maxBytes: 1 << 20 }, request, write)).rejects.toThrow(
      /^the install was cancelled; nothing was changed$/,
    );
    expect(written).toBeLessThan(41);
    expect(await readdir(project)).toEqual([]);
  });

  it("honours notifications/cancelled from an MCP client", async () => {
    const { catalogRoot, project, client } = await setup({ maxFiles: 10_000 });
    // Enough files that the copy is still running when the cancellation arrives.
    await Promise.all(
      Array.from({ length: 3000 }, (_, i) => writeFile(join(catalogRoot, "outer", `f${i}.md`), `file ${i}`)),
    );
    const controller = new AbortController();
    const call = client.callTool(
      { name: "install_skill", arguments: { skill_name: "outer", target: "project" } },
      {
        signal: controller.signal,
      },
    );
    // Cancel once the copy has started, which comes after the audit of all 3,000 files: slow on a
    // busy machine, so the bound only keeps a broken install from hanging the test.
    let copying = false;
    for (let i = 0; i < 5_000 && !copying; i++) {
      const entries = await readdir(project).catch(() => []);
      copying = entries.some((entry) => entry.startsWith(".installing-"));
      if (!copying) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(copying).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    // The handler stops on its own; give it the time to remove its temporary folder.
    for (let i = 0; i < 400 && (await readdir(project)).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await readdir(project)).toEqual([]);
  });
});

describe("install_skill folders (#14 item 9)", () => {
  it("creates folders with the user's umask, not mkdtemp's 0700", async () => {
    const { project, install } = await setup();
    await install({ skill_name: "outer", target: "project" });
    const expected = 0o777 & ~process.umask();
    expect((await stat(join(project, "outer"))).mode & 0o777).toBe(expected);
  });

  it("escapes invisible characters of a requested name in its answer", async () => {
    const { install } = await setup();
    const answer = await install({ skill_name: "outer\u202egnp.exe", target: "project" });
    expect(answer.isError).toBe(true);
    expect(answer.text).not.toContain("\u202e");
    expect(answer.text).toContain("outer\\u202egnp.exe");
  });
});
