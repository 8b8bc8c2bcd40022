import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import installSkillPlugin from "../../../../src/plugins/tools/install-skill/index.js";
import { installOptionsSchema } from "../../../../src/lifecycle/installer.js";
import { installSkill, unsafeNameReason, type WriteNewFile } from "../../../../src/lifecycle/install.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";
import { boot } from "../validate-skill/kernel.js";

const BINARY = Uint8Array.from([0, 1, 2, 254, 255, 0, 10, 13]);

/**
 * A catalog root of skills to install from, and project and user targets that do not exist yet.
 * The project target is served (first, so what is installed there wins its name); the user target
 * is served too unless `serveUser` is false.
 */
async function setup(options: { serveUser?: boolean; install?: Record<string, unknown> } = {}) {
  const base = await tempDir();
  const catalogRoot = join(base, "catalog");
  const project = join(base, "project", ".claude", "skills");
  const user = join(base, "home", ".claude", "skills");

  await writeSkillFile(catalogRoot, "pdf", skillMd("pdf", "Fill PDF forms."));
  await writeSkillFile(catalogRoot, "pdf/references", "# Guide\n", "guide.md");
  await writeSkillFile(catalogRoot, "pdf/scripts", "#!/bin/sh\necho hi\n", "run.sh");
  await chmod(join(catalogRoot, "pdf", "scripts", "run.sh"), 0o755);
  await writeFile(join(catalogRoot, "pdf", "logo.bin"), BINARY);
  await writeSkillFile(catalogRoot, "versioned", `---\nname: versioned\ndescription: x\nversion: 1.0.0\n---\n`);
  await writeSkillFile(catalogRoot, "broken", `---\nname: broken\ndescription: x\nmetadata:\n  count: 3\n---\n`);
  await writeSkillFile(catalogRoot, "sneaky", `---\nname: "../sneaky"\ndescription: x\n---\n`);
  await writeSkillFile(catalogRoot, "hidden", `---\nname: .hidden\ndescription: x\n---\n`);
  await writeSkillFile(catalogRoot, "shouty", `---\nname: Shouty_Name\ndescription: x\n---\n`);
  await writeSkillFile(catalogRoot, "con", skillMd("con"));
  await writeSkillFile(catalogRoot, "leaky", skillMd("leaky"));
  await writeFile(join(base, "secret.txt"), "top secret");
  await mkdir(join(catalogRoot, "leaky", "references"));
  await symlink(join(base, "secret.txt"), join(catalogRoot, "leaky", "references", "secret.md"));
  await writeFile(join(catalogRoot, "leaky", "notes.md"), "inside");
  await writeFile(join(catalogRoot, "leaky", "empty.txt"), "");
  await symlink("notes.md", join(catalogRoot, "leaky", "alias.md"));

  const roots: unknown[] = [{ path: project, source: "project", optional: true }, catalogRoot];
  if (options.serveUser !== false) roots.push({ path: user, source: "user", optional: true });
  const plugins: PluginEntry[] = [
    ["fs", { roots }],
    "list-skills",
    ["install-skill", { targets: { project, user }, ...options.install }],
  ];
  const booted = await boot(plugins, base);
  const install = (args: Record<string, unknown>) => booted.call("install_skill", args);
  return { base, catalogRoot, project, user, install, ...booted };
}

async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name).slice(dir.length + 1),
    )
    .sort();
}

describe("install_skill", () => {
  it("is the built-in plugin install-skill, a destructive tool", async () => {
    expect(await builtinPlugins["install-skill"]!()).toBe(installSkillPlugin);
    const { client } = await setup();
    const tool = (await client.listTools()).tools.find((t) => t.name === "install_skill")!;
    expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it("defaults to .claude/skills under the config's folder and under home", () => {
    expect(installOptionsSchema.parse({})).toEqual({
      targets: { project: ".claude/skills", user: "~/.claude/skills" },
      maxFiles: 5000,
      maxBytes: 100 * 1024 * 1024,
      includeSecretFiles: false,
      privateHosts: [],
    });
  });

  it("copies the skill folder into the target under its name, and serves it at once", async () => {
    const { install, project, kernel, catalogRoot } = await setup();
    await kernel.catalog.ready();
    expect(kernel.catalog.get("pdf")?.source).toBe("catalog");
    const answer = await install({ skill_name: "pdf", target: "project" });
    expect(answer.isError).toBe(false);
    expect(answer.structured).toEqual({
      name: "pdf",
      from: "catalog:pdf",
      path: join(project, "pdf"),
      dry_run: false,
      replaced: false,
      files: ["SKILL.md", "logo.bin", "references/guide.md", "scripts/run.sh"],
      bytes: expect.any(Number),
      served_as: "pdf",
      left_out: [],
      warnings: [],
    });
    expect(answer.text).toMatch(
      /^Installed "pdf" \(from catalog:pdf\) into .*pdf: 4 files, \d+ bytes\.\nServed now as "pdf"\./,
    );
    expect(await tree(join(project, "pdf"))).toEqual(["SKILL.md", "logo.bin", "references/guide.md", "scripts/run.sh"]);
    expect(await readFile(join(project, "pdf", "SKILL.md"), "utf8")).toBe(
      await readFile(join(catalogRoot, "pdf", "SKILL.md"), "utf8"),
    );
    expect(new Uint8Array(await readFile(join(project, "pdf", "logo.bin")))).toEqual(BINARY);
    // Never made executable, even what was executable in the source.
    expect((await stat(join(project, "pdf", "scripts", "run.sh"))).mode & 0o111).toBe(0);
    // The project copy now wins the plain name; no temporary folder is left behind.
    expect(kernel.catalog.get("pdf")?.source).toBe("project");
    expect(await readdir(project)).toEqual(["pdf"]);
  });

  it("installs into the user target", async () => {
    const { install, user } = await setup();
    const answer = await install({ skill_name: "versioned", target: "user" });
    expect(answer.structured).toMatchObject({ path: join(user, "versioned"), served_as: "user:versioned" });
    expect(answer.structured.warnings).toEqual([
      expect.stringMatching(/^version: is not a spec field/),
      `another skill named "versioned" takes precedence; this one is served as user:versioned`,
    ]);
  });

  it("refuses to overwrite unless asked, then replaces the folder whole", async () => {
    const { install, project, kernel } = await setup();
    await install({ skill_name: "pdf", target: "project" });
    await writeFile(join(project, "pdf", "stale.md"), "left over");

    const refused = await install({ skill_name: "catalog:pdf", target: "project" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `install_skill: ${join(project, "pdf")} already exists; ask to overwrite it (overwrite: true, or --force) to replace it`,
    );
    expect(await tree(join(project, "pdf"))).toContain("stale.md");

    const replaced = await install({ skill_name: "pdf", source: "catalog", target: "project", overwrite: true });
    expect(replaced.structured).toMatchObject({ from: "catalog:pdf", replaced: true, served_as: "pdf" });
    expect(replaced.text).toContain("It replaced the folder that was there.");
    expect(await tree(join(project, "pdf"))).toEqual(["SKILL.md", "logo.bin", "references/guide.md", "scripts/run.sh"]);
    expect(await readdir(project)).toEqual(["pdf"]);
    expect(kernel.catalog.get("pdf")?.source).toBe("project");
  });

  it("refuses to install a skill onto itself, naming the copies to install from", async () => {
    const { install, project } = await setup();
    await install({ skill_name: "pdf", target: "project" });
    // "pdf" now answers to the installed copy.
    const again = await install({ skill_name: "pdf", target: "project", overwrite: true });
    expect(again.text).toBe(
      `install_skill: "pdf" is the copy installed at ${join(project, "pdf")} already: install from catalog:pdf`,
    );
    expect(await tree(join(project, "pdf"))).toEqual(["SKILL.md", "logo.bin", "references/guide.md", "scripts/run.sh"]);
  });

  it("writes nothing on a dry run", async () => {
    const { install, base, project } = await setup();
    const answer = await install({ skill_name: "pdf", target: "project", dry_run: true });
    expect(answer.structured).toMatchObject({
      dry_run: true,
      replaced: false,
      path: join(project, "pdf"),
      files: ["SKILL.md", "logo.bin", "references/guide.md", "scripts/run.sh"],
      warnings: [],
    });
    expect(answer.structured.served_as).toBeUndefined();
    expect(answer.text).toMatch(/^Dry run: would install "pdf".*Nothing was written\./);
    expect(await readdir(base)).not.toContain("project");
  });

  it("refuses a name unsafe as a folder before writing anything", async () => {
    const { install, base } = await setup();
    const answer = await install({ skill_name: "con", target: "project" });
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(`install_skill: refusing to install "con": the name is a device name on Windows`);
    expect(await readdir(base)).not.toContain("project");
  });

  it.each([
    ["../sneaky", "sneaky"],
    [".hidden", "hidden"],
  ])("installs a skill named %s as its source folder's name, %s, never as its name", async (name, folder) => {
    const { install, project } = await setup();
    const answer = await install({ skill_name: name, target: "project" });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.structured.path).toBe(join(project, folder));
    expect(await readdir(project)).toEqual([folder]);
  });

  it("installs a skill that breaks the spec with warnings; strict refuses it", async () => {
    const { install, base, project } = await setup();
    const strict = await install({ skill_name: "broken", target: "project", strict: true });
    expect(strict.isError).toBe(true);
    expect(strict.text).toBe(
      `install_skill: refusing to install "broken" (strict): its SKILL.md breaks the Agent Skills spec: metadata: "count" is a number: quote it; the spec wants string values`,
    );
    expect(await readdir(base)).not.toContain("project");
    const broken = await install({ skill_name: "broken", target: "project" });
    expect(broken.isError).toBe(false);
    expect(broken.structured.warnings).toEqual([
      `spec: metadata: "count" is a number: quote it; the spec wants string values (installed anyway; strict refuses it)`,
    ]);
    expect(await tree(join(project, "broken"))).toEqual(["SKILL.md"]);
    // A name that is not a valid skill name installs under its source folder's name.
    const shouty = await install({ skill_name: "Shouty_Name", target: "project" });
    expect(shouty.isError).toBe(false);
    expect(shouty.structured.warnings[0]).toMatch(/^spec: name: /);
    expect(await tree(join(project, "shouty"))).toEqual(["SKILL.md"]);
    expect((await install({ skill_name: "Shouty_Name", target: "user", strict: true })).isError).toBe(true);
    const versioned = await install({ skill_name: "versioned", target: "project" });
    expect(versioned.structured.warnings).toEqual([expect.stringMatching(/^version: is not a spec field/)]);
  });

  it("never follows a symlink out of the skill folder; one inside is copied as a file; an empty file stays empty", async () => {
    const { install, project } = await setup();
    const answer = await install({ skill_name: "leaky", target: "project" });
    expect(answer.structured.files).toEqual(["SKILL.md", "alias.md", "empty.txt", "notes.md"]);
    expect(answer.structured.left_out).toEqual([
      { path: "references/secret.md", reason: "a link that leads out of the skill folder, or not to a file" },
    ]);
    expect(await tree(join(project, "leaky"))).toEqual(["SKILL.md", "alias.md", "empty.txt", "notes.md"]);
    expect(await readFile(join(project, "leaky", "empty.txt"), "utf8")).toBe("");
    expect((await stat(join(project, "leaky", "alias.md"))).isFile()).toBe(true);
    expect(await readFile(join(project, "leaky", "alias.md"), "utf8")).toBe("inside");
  });

  it("leaves out a lowercase skill.md beside SKILL.md", async () => {
    const { install, catalogRoot, project } = await setup();
    await writeFile(join(catalogRoot, "pdf", "skill.md"), "an old copy");
    const answer = await install({ skill_name: "pdf", target: "project" });
    expect(answer.structured.left_out).toEqual([
      { path: "skill.md", reason: "the installed SKILL.md takes its place" },
    ]);
    expect(await tree(join(project, "pdf"))).toEqual(["SKILL.md", "logo.bin", "references/guide.md", "scripts/run.sh"]);
  });

  it("says when no source serves the target", async () => {
    const { install, user } = await setup({ serveUser: false });
    const answer = await install({ skill_name: "pdf", target: "user" });
    expect(answer.isError).toBe(false);
    expect(answer.structured.served_as).toBeUndefined();
    expect(answer.structured.warnings).toEqual([
      `target ${user} is not served by any source; add it to the fs plugin's roots`,
    ]);
    expect(await tree(join(user, "pdf"))).toHaveLength(4);
  });

  it("refuses a skill over maxFiles or maxBytes", async () => {
    const files = await setup({ install: { maxFiles: 2 } });
    expect((await files.install({ skill_name: "pdf", target: "project" })).text).toBe(
      `install_skill: refusing to install "pdf": it holds 3 files, over maxFiles (2)`,
    );
    const bytes = await setup({ install: { maxBytes: 60 } });
    expect((await bytes.install({ skill_name: "pdf", target: "project" })).text).toMatch(
      /^install_skill: refusing to install "pdf": it holds \d+ bytes, over maxBytes \(60\)$/,
    );
  });

  it("refuses a skill whose folder is larger than a listing reads", async () => {
    const files = await setup();
    const deep = Array.from({ length: 9 }, (_, i) => `d${i}`).join("/");
    await writeSkillFile(files.catalogRoot, `pdf/${deep}`, "too deep to list", "deep.md");
    expect((await files.install({ skill_name: "pdf", target: "project" })).text).toBe(
      `install_skill: refusing to install "pdf": its folder is larger than a listing reads, so a copy could not be complete`,
    );
    await expect(stat(files.project)).rejects.toThrow();
  });

  it("refuses an unknown skill or source, naming close ones", async () => {
    const { install } = await setup();
    expect((await install({ skill_name: "pfd", target: "project" })).text).toMatch(/no skill named "pfd".*pdf/);
    expect((await install({ skill_name: "pdf", source: "nope", target: "project" })).text).toMatch(
      /no source named "nope"/,
    );
  });

  it("refuses a target other than project or user", async () => {
    const { install } = await setup();
    const answer = await install({ skill_name: "pdf", target: "/tmp" });
    expect(answer.isError).toBe(true);
  });
});

describe("installSkill atomicity", () => {
  /** Writes `allowed` files, then fails: the copy breaks off midway. */
  function failingAfter(allowed: number): { write: WriteNewFile; written: () => number } {
    let count = 0;
    return {
      written: () => count,
      write: async (path, bytes) => {
        if (count >= allowed) throw new Error("disk full (injected)");
        count++;
        await writeFile(path, bytes, { flag: "wx" });
      },
    };
  }

  const LIMITS = { maxFiles: 100, maxBytes: 1024 * 1024 };

  it("leaves nothing behind when a fresh install fails midway", async () => {
    const { kernel, project } = await setup();
    await mkdir(project, { recursive: true });
    await writeSkillFile(project, "other", skillMd("other"));
    const failing = failingAfter(2);
    const request = { skill: "pdf", targetRoot: project, overwrite: false, dryRun: false };
    await expect(installSkill(kernel.catalog, LIMITS, request, failing.write)).rejects.toThrow(
      /^installing "pdf" failed; nothing was changed: disk full \(injected\)$/,
    );
    expect(failing.written()).toBe(2);
    expect(await readdir(project)).toEqual(["other"]);
  });

  it("leaves the installed copy untouched when a replacement fails midway", async () => {
    const { kernel, project, install } = await setup();
    await install({ skill_name: "pdf", target: "project" });
    await writeFile(join(project, "pdf", "mine.md"), "keep me");
    const before = await tree(join(project, "pdf"));
    const request = { skill: "catalog:pdf", targetRoot: project, overwrite: true, dryRun: false };
    await expect(installSkill(kernel.catalog, LIMITS, request, failingAfter(1).write)).rejects.toThrow(
      /nothing was changed/,
    );
    expect(await tree(join(project, "pdf"))).toEqual(before);
    expect(await readFile(join(project, "pdf", "mine.md"), "utf8")).toBe("keep me");
    expect(await readdir(project)).toEqual(["pdf"]);
  });

  it("fails SKILL.md, written last, without leaving the copied files", async () => {
    const { kernel, project } = await setup();
    const request = { skill: "pdf", targetRoot: project, overwrite: false, dryRun: false };
    await expect(installSkill(kernel.catalog, LIMITS, request, failingAfter(3).write)).rejects.toThrow(
      /nothing was changed/,
    );
    expect(await readdir(project)).toEqual([]);
  });
});

describe("unsafeNameReason", () => {
  it.each([
    ["", "the name is empty"],
    ["a/b", "the name holds a path separator, or a character that looks like one"],
    ["a\\b", "the name holds a path separator, or a character that looks like one"],
    ["a\u2215b", "the name holds a path separator, or a character that looks like one"],
    ["a\u2044b", "the name holds a path separator, or a character that looks like one"],
    ["..", "the name starts with a dot"],
    ["a\u0000b", "the name holds a control or invisible formatting character"],
    ["evil\u202egnp.md", "the name holds a control or invisible formatting character"],
    ["x".repeat(201), "the name is longer than 200 bytes"],
    ["a:b", 'the name holds a character Windows refuses in file names (<>:"|?*)'],
    ["trailing.", "the name starts or ends with a space, or ends with a dot"],
    ["lpt1", "the name is a device name on Windows"],
    ["NUL.txt", "the name is a device name on Windows"],
  ])("refuses %j", (name, reason) => {
    expect(unsafeNameReason(name)).toBe(reason);
  });

  it.each(["pdf-tools-2", "Docker Expert", "a--b", "x".repeat(65)])(
    "accepts %j: the spec may dislike it, but it is a safe folder name",
    (name) => {
      expect(unsafeNameReason(name)).toBeUndefined();
    },
  );
});
