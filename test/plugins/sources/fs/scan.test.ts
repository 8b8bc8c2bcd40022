import { execFileSync } from "node:child_process";
import { mkdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { SourceSnapshot } from "../../../../src/skills/types.js";
import { fsOptionsSchema } from "../../../../src/plugins/sources/fs/index.js";
import { scanRoot } from "../../../../src/plugins/sources/fs/scan.js";
import { loadRoots, setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const paths = (snapshot: SourceSnapshot) => snapshot.skills.map((skill) => skill.path);
const codesAt = (snapshot: SourceSnapshot, path: string) =>
  snapshot.diagnostics.filter((diagnostic) => diagnostic.path === path).map((diagnostic) => diagnostic.code);

describe("walking a root", () => {
  it("finds nested skills, the root itself included, sorted by path", async () => {
    const root = await tempDir();
    await writeFile(join(root, "SKILL.md"), skillMd("root-skill"));
    await writeSkillFile(root, "b-skill", skillMd("b-skill"));
    await writeSkillFile(root, "b-skill/references/inner", skillMd("inner"));
    await writeSkillFile(root, "b-skill/assets/template", skillMd("template"));
    await writeSkillFile(root, "a/deeper/a-skill", skillMd("a-skill"));

    const snapshot = await loadRoots([root], root);
    expect(paths(snapshot)).toEqual([
      "",
      "a/deeper/a-skill",
      "b-skill",
      "b-skill/assets/template",
      "b-skill/references/inner",
    ]);
    expect(snapshot.skills.map((skill) => skill.name)).toEqual([
      "root-skill",
      "a-skill",
      "b-skill",
      "template",
      "inner",
    ]);
    // The root's own folder name is what its name is compared with.
    expect(codesAt(snapshot, "")).toEqual(["name-mismatch"]);
  });

  it("scans hidden folders but skips node_modules and .git", async () => {
    const root = await tempDir();
    await writeSkillFile(root, ".curated/curated", skillMd("curated"));
    await writeSkillFile(root, ".system/system", skillMd("system"));
    await writeSkillFile(root, "node_modules/pkg/dep", skillMd("dep"));
    await writeSkillFile(root, ".git/hooks/hook", skillMd("hook"));
    await writeSkillFile(root, "tool/node_modules/nested", skillMd("nested"));

    expect(paths(await loadRoots([root], root))).toEqual([".curated/curated", ".system/system"]);
  });

  it("accepts skill.md and prefers SKILL.md when both exist", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "lower", skillMd("lower"), "skill.md");
    await writeSkillFile(root, "both", skillMd("both", "Upper case wins."));
    await writeSkillFile(root, "both", skillMd("both", "Lower case loses."), "skill.md");

    const snapshot = await loadRoots([root], root);
    expect(snapshot.skills.map((skill) => [skill.path, skill.description])).toEqual([
      ["both", "Upper case wins."],
      ["lower", "The lower skill."],
    ]);
  });

  it("descends at most maxDepth folders", async () => {
    const root = await tempDir();
    await writeFile(join(root, "SKILL.md"), skillMd("top"));
    await writeSkillFile(root, "one", skillMd("one"));
    await writeSkillFile(root, "one/two", skillMd("two"));
    await writeSkillFile(root, "one/two/three", skillMd("three"));

    expect(paths(await loadRoots([root], root, { maxDepth: 2 }))).toEqual(["", "one", "one/two"]);
    expect(paths(await loadRoots([root], root, { maxDepth: 0 }))).toEqual([""]);
    expect(paths(await loadRoots([root], root))).toEqual(["", "one", "one/two", "one/two/three"]);
  });

  it("reports the skills below maxDepth, with their count and the option that serves them", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "one", skillMd("one"));
    await writeSkillFile(root, "one/two", skillMd("two"));
    await writeSkillFile(root, "one/two/references/three", skillMd("three"));
    await writeSkillFile(root, "one/two/references/three/assets/four", skillMd("four"));

    const cut = await loadRoots([root], root, { maxDepth: 2 });
    expect(paths(cut)).toEqual(["one", "one/two"]);
    expect(cut.diagnostics.filter((diagnostic) => diagnostic.code === "below-max-depth")).toEqual([
      expect.objectContaining({
        severity: "warning",
        path: "",
        message: expect.stringMatching(
          /^2 skills lie more than 2 folders below .* \(maxDepth\) and are not served; raise the fs option maxDepth/,
        ),
      }),
    ]);
    const served = await loadRoots([root], root);
    expect(paths(served)).toHaveLength(4);
    expect(served.diagnostics.filter((diagnostic) => diagnostic.code === "below-max-depth")).toEqual([]);
  });

  it("stops the walk at maxDirectories with one scan-limit error, finding the same skills every time", async () => {
    const root = await tempDir();
    for (const letter of "abcdefgh")
      await writeSkillFile(root, `${letter}/skill-${letter}`, skillMd(`skill-${letter}`));
    const scan = () =>
      scanRoot(root, {
        maxDepth: 6,
        maxDirectories: 12,
        logger: createLogger("silent"),
        signal: new AbortController().signal,
      });

    // The root, then a..h, then their children in order: 12 folders reach skill-a, skill-b, skill-c.
    const first = await scan();
    expect(first.folders.map((folder) => folder.path)).toEqual(["a/skill-a", "b/skill-b", "c/skill-c"]);
    expect(first.diagnostics).toMatchObject([
      { severity: "error", path: "", code: "scan-limit", message: expect.stringContaining("maxDirectories") },
    ]);
    expect((await scan()).folders).toEqual(first.folders);
  });

  it("refuses a root past maxDirectories, naming the option, instead of serving part of it", async () => {
    const root = await tempDir();
    for (const letter of "abcdefgh")
      await writeSkillFile(root, `${letter}/skill-${letter}`, skillMd(`skill-${letter}`));
    // 17 folders: the root, a..h and their skills.
    await expect(loadRoots([root], root, { maxDirectories: 16 })).rejects.toThrow(
      /holds more than 16 folders \(maxDirectories\), so none of its skills are served; raise the fs option maxDirectories/,
    );
    expect(paths(await loadRoots([root], root, { maxDirectories: 17 }))).toHaveLength(8);
  });

  it("serves 100,000 skills with the default limits", async () => {
    const { maxDirectories, maxDepth } = fsOptionsSchema.parse({ roots: ["."] });
    // A registry mirror: owner/repo/skills/<skill>, and a skill's own references/ and scripts/.
    expect(maxDepth).toBeGreaterThanOrEqual(4);
    expect(maxDirectories).toBeGreaterThanOrEqual(100_000 * 3);
  });

  it("lists a skill once per folder, so a link to a sibling skill adds nothing", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "real", skillMd("real"));
    await symlink("real", join(root, "alias"));

    expect(paths(await loadRoots([root], root))).toEqual(["real"]);
  });
});

describe("symlinks", () => {
  it("follows a symlinked skill folder out of a followLinksOut root, taking its target as the skill without scanning inside", async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    await writeSkillFile(elsewhere, "my-skill", skillMd("my-skill"));
    await writeSkillFile(elsewhere, "my-skill/references/inner", skillMd("inner"));
    await symlink(join(elsewhere, "my-skill"), join(root, "my-skill"));

    const snapshot = await loadRoots([{ path: root, followLinksOut: true }], root);
    expect(snapshot.skills).toMatchObject([{ name: "my-skill", path: "my-skill" }]);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it("follows a symlinked skill folder only within its source's roots by default", async () => {
    const base = await tempDir();
    await writeSkillFile(base, "store/kept", skillMd("kept"));
    await writeSkillFile(base, "elsewhere/private", skillMd("private"));
    await mkdir(join(base, "agent"));
    await symlink("../store/kept", join(base, "agent", "kept"));
    await symlink(join(base, "elsewhere", "private"), join(base, "agent", "private"));
    await symlink(`${"../".repeat(30)}${join(base, "elsewhere", "private").slice(1)}`, join(base, "agent", "climbing"));

    const snapshot = await loadRoots(
      [
        { path: "agent", source: "s" },
        { path: "store", source: "s" },
      ],
      base,
    );
    expect(snapshot.skills.map((skill) => `${skill.path}@${skill.rank}`).sort()).toEqual(["kept@0", "kept@1"]);
    expect(snapshot.diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.path}`)).toEqual([
      "link-out climbing",
      "link-out private",
    ]);
    // The message never names where the link leads.
    expect(JSON.stringify(snapshot.diagnostics)).not.toContain("elsewhere");

    const alone = await loadRoots(["agent"], base);
    expect(alone.skills).toEqual([]);
    expect(alone.diagnostics.map((diagnostic) => diagnostic.path)).toEqual(["climbing", "kept", "private"]);
  });

  it("does not follow a link out of the root to a folder that is not a skill", async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    await writeSkillFile(elsewhere, "sub/hidden", skillMd("hidden"));
    await symlink(elsewhere, join(root, "out"));
    await symlink("/", join(root, "filesystem-root"));

    const fake = await setupFs({ roots: [{ path: root, followLinksOut: true }] }, root);
    const snapshot = await fake.sources[0]!.load(new AbortController().signal);
    expect(snapshot).toEqual({ skills: [], diagnostics: [] });
    expect(fake.logs.some((line) => line.includes("not following symlink out"))).toBe(true);
  });

  it("survives link loops, self links and broken links", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "skill", skillMd("skill"));
    await symlink("..", join(root, "skill", "up"));
    await symlink(".", join(root, "skill", "self"));
    await mkdir(join(root, "loop"));
    await symlink("..", join(root, "loop", "a"));
    await symlink("y", join(root, "x"));
    await symlink("x", join(root, "y"));
    await symlink("missing", join(root, "broken"));
    await symlink(join(root, "skill", "SKILL.md"), join(root, "file-link"));

    const snapshot = await loadRoots([root], root, { maxDepth: 20 });
    expect(paths(snapshot)).toEqual(["skill"]);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it("refuses a SKILL.md that leads outside its skill folder", async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    await writeFile(join(elsewhere, "canary.md"), skillMd("escaped"));
    await writeSkillFile(root, "sibling", skillMd("sibling"));
    await mkdir(join(root, "escaped"));
    await symlink(join(elsewhere, "canary.md"), join(root, "escaped", "SKILL.md"));
    await mkdir(join(root, "borrowed"));
    await symlink("../sibling/SKILL.md", join(root, "borrowed", "SKILL.md"));

    const snapshot = await loadRoots([root], root);
    expect(paths(snapshot)).toEqual(["sibling"]);
    expect(codesAt(snapshot, "escaped")).toEqual(["outside-skill"]);
    expect(codesAt(snapshot, "borrowed")).toEqual(["outside-skill"]);
  });

  it("accepts a SKILL.md linked to a file within its own folder", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "linked-file/docs", skillMd("linked-file"), "skill-source.md");
    await symlink("docs/skill-source.md", join(root, "linked-file", "SKILL.md"));

    expect((await loadRoots([root], root)).skills).toMatchObject([{ name: "linked-file", path: "linked-file" }]);
  });
});

describe("files that are not regular", () => {
  it("skips a FIFO named SKILL.md without blocking, and ignores other FIFOs in a skill", async () => {
    const root = await tempDir();
    await mkdir(join(root, "fifo-skill"));
    execFileSync("mkfifo", [join(root, "fifo-skill", "SKILL.md")]);
    await writeSkillFile(root, "with-fifo", skillMd("with-fifo"));
    execFileSync("mkfifo", [join(root, "with-fifo", "pipe")]);

    const snapshot = await loadRoots([root], root);
    expect(paths(snapshot)).toEqual(["with-fifo"]);
    expect(snapshot.diagnostics).toMatchObject([
      { severity: "error", path: "fifo-skill", code: "not-regular-file", message: expect.stringMatching(/FIFO/) },
    ]);
  });

  it("skips a folder named SKILL.md", async () => {
    const root = await tempDir();
    await mkdir(join(root, "odd", "SKILL.md"), { recursive: true });

    expect(codesAt(await loadRoots([root], root), "odd")).toEqual(["not-regular-file"]);
  });
});

describe("the source", () => {
  it("stamps diagnostics with its name and the skill's path, warnings for loaded skills", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "no-front", "# No frontmatter\n");
    await writeSkillFile(root, "renamed", skillMd("other-name"));

    const snapshot = await loadRoots([{ path: root, source: "mine" }], root);
    expect(snapshot.diagnostics).toEqual([
      { severity: "error", source: "mine", path: "no-front", code: "no-frontmatter", message: expect.any(String) },
      { severity: "warning", source: "mine", path: "renamed", code: "name-mismatch", message: expect.any(String) },
    ]);
    expect(snapshot.skills).toEqual([
      {
        name: "other-name",
        description: "The other-name skill.",
        path: "renamed",
        frontmatter: expect.anything(),
        excerpt: "# other-name",
        rank: 0,
      },
    ]);
  });

  it("sees changes when loaded again", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "first", skillMd("first"));
    const { sources } = await setupFs({ roots: [root] }, root);
    const source = sources[0]!;

    expect(paths(await source.load(new AbortController().signal))).toEqual(["first"]);
    await writeSkillFile(root, "second", skillMd("second"));
    await rm(join(root, "first"), { recursive: true });
    expect(paths(await source.load(new AbortController().signal))).toEqual(["second"]);
  });

  it("reports a root that vanished after setup", async () => {
    const root = await tempDir();
    await mkdir(join(root, "skills"));
    const { sources } = await setupFs({ roots: ["skills"] }, root);
    await rm(join(root, "skills"), { recursive: true });

    const snapshot = await sources[0]!.load(new AbortController().signal);
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.diagnostics).toMatchObject([{ severity: "error", path: "", code: "scan-error" }]);
  });

  it("stops when its signal is aborted", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "skill", skillMd("skill"));
    const { sources } = await setupFs({ roots: [root] }, root);
    const controller = new AbortController();
    controller.abort(new Error("shutting down"));

    await expect(sources[0]!.load(controller.signal)).rejects.toThrow("shutting down");
  });
});

describe("onDirectory", () => {
  it("is called with each folder's real path before the folder is listed, within the walk's limits", async () => {
    const root = await realpath(await tempDir());
    await writeSkillFile(root, "a/deep/deeper", skillMd("deeper"));
    await mkdir(join(root, "node_modules/pkg"), { recursive: true });
    const target = await tempDir();
    await writeFile(join(target, "SKILL.md"), skillMd("linked"));
    await symlink(target, join(root, "linked"));

    const seen: string[] = [];
    const scan = await scanRoot(root, {
      maxDepth: 2,
      maxDirectories: 100,
      logger: createLogger("silent"),
      signal: new AbortController().signal,
      followLinksOut: true,
      onDirectory: async (dir) => {
        seen.push(dir);
        // Written before a/ is listed, so the listing finds it.
        if (dir === join(root, "a")) await writeFile(join(dir, "SKILL.md"), skillMd("a"));
      },
    });
    expect(seen.sort()).toEqual([root, join(root, "a"), join(root, "a/deep"), await realpath(target)].sort());
    expect(scan.folders.map((folder) => folder.path)).toEqual(["a", "linked"]);
  });
});
