import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PluginError } from "../../../../src/kernel/errors.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import fsPlugin, { fsOptionsSchema } from "../../../../src/plugins/sources/fs/index.js";
import { groupRoots } from "../../../../src/plugins/sources/fs/roots.js";
import { createFakeContext, setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures", import.meta.url));

describe("options", () => {
  const validate = (raw: unknown) => fsPlugin.options!["~standard"].validate(raw);

  it("applies defaults", async () => {
    expect(await validate({ roots: ["./skills"] })).toEqual({
      value: {
        roots: ["./skills"],
        maxDepth: 12,
        maxDirectories: 1_000_000,
        maxFrontmatterBytes: 65_536,
        maxSkillFileBytes: 262_144,
        watch: true,
        pollIntervalMs: 2000,
        diskCache: true,
        maxDiskCacheBytes: 268_435_456,
      },
    });
  });

  it.each([
    ["no roots", { roots: [] }],
    ["a misspelt option", { roots: ["a"], maxdepth: 2 }],
    ["an unknown root key", { roots: [{ path: "a", optinal: true }] }],
    ["a negative depth", { roots: ["a"], maxDepth: -1 }],
    ["an empty path", { roots: [""] }],
  ])("refuses %s", async (_label, raw) => {
    expect((await validate(raw)).issues?.length).toBeGreaterThan(0);
  });

  it("is the built-in plugin named fs", async () => {
    expect(await builtinPlugins.fs!()).toBe(fsPlugin);
  });
});

describe("roots and sources", () => {
  it("resolves relative roots against the config's folder", async () => {
    const { sources } = await setupFs({ roots: ["skills"] }, FIXTURES);
    expect(sources.map((source) => [source.name, source.description])).toEqual([["skills", join(FIXTURES, "skills")]]);

    const snapshot = await sources[0]!.load(new AbortController().signal);
    expect(snapshot.skills.map((skill) => [skill.path, skill.name])).toEqual([
      [".curated/code-review", "code-review"],
      ["csv-tools", "csv-tools"],
      ["hello-world", "hello-world"],
      ["hello-world/references/hello-helper", "hello-helper"],
    ]);
    expect(snapshot.diagnostics).toEqual([]);
    expect(snapshot.skills[1]!.description).toBe(
      "Cleans CSV files: trims cells, fixes headers. Use when the user shares a CSV.",
    );
  });

  it("expands ~ to the home folder", () => {
    const groups = groupRoots(["~", "~/.claude/skills", "./x~"], "/base", "/home/me");
    expect(groups.flatMap((group) => group.roots.map((root) => root.path))).toEqual([
      "/home/me",
      "/home/me/.claude/skills",
      "/base/x~",
    ]);
  });

  it("names sources after root folders, deduplicated, and groups roots that share a source", () => {
    const groups = groupRoots(
      [
        "/a/skills",
        { path: "/b/skills", optional: true },
        { path: "/c/one", source: "skills-2" },
        { path: "/d/two", source: "shared" },
        { path: "/e/three", source: "shared" },
        "/",
      ],
      "/base",
      "/home/me",
    );
    expect(groups).toEqual([
      { source: "skills", roots: [{ path: "/a/skills", optional: false }] },
      // skills-2 is claimed by an explicit source, so the second "skills" folder gets -3.
      { source: "skills-3", roots: [{ path: "/b/skills", optional: true }] },
      { source: "skills-2", roots: [{ path: "/c/one", optional: false }] },
      {
        source: "shared",
        roots: [
          { path: "/d/two", optional: false },
          { path: "/e/three", optional: false },
        ],
      },
      { source: "fs", roots: [{ path: "/", optional: false }] },
    ]);
  });

  it("forms one source from roots that share a source, ranked in the order given", async () => {
    const base = await tempDir();
    await writeSkillFile(base, "project/shared", skillMd("shared", "Project copy."));
    await writeSkillFile(base, "user/shared", skillMd("shared", "User copy."));
    await writeSkillFile(base, "user/personal", skillMd("personal"));

    const { sources } = await setupFs(
      {
        roots: [
          { path: "project", source: "mine" },
          { path: "user", source: "mine" },
        ],
      },
      base,
    );
    expect(sources.map((source) => source.name)).toEqual(["mine"]);
    const snapshot = await sources[0]!.load(new AbortController().signal);
    expect(snapshot.skills.map((skill) => [skill.path, skill.description, skill.rank])).toEqual([
      ["personal", "The personal skill.", 1],
      ["shared", "Project copy.", 0],
      ["shared", "User copy.", 1],
    ]);
  });

  it("says who may see a source, and refuses roots of one source that disagree", async () => {
    const base = await tempDir();
    for (const folder of ["team", "more", "open"]) await mkdir(join(base, folder), { recursive: true });
    const visibleTo = { claims: { groups: ["platform"] } };
    const { visibility } = await setupFs(
      { roots: [{ path: "team", source: "team", visibleTo }, { path: "more", source: "team", visibleTo }, "open"] },
      base,
    );
    expect(visibility).toEqual([{ name: "team", visibleTo }]);
    await expect(
      setupFs(
        {
          roots: [
            { path: "team", source: "team", visibleTo },
            { path: "more", source: "team" },
          ],
        },
        base,
      ),
    ).rejects.toThrow('plugin "fs": the roots of source "team" differ in visibleTo');
    await expect(setupFs({ roots: [{ path: "team", visibleTo: {} }] }, base)).rejects.toThrow(
      "visibleTo must name at least one scope or claim value",
    );
  });

  it("adds sources in the order of their first root", async () => {
    const base = await tempDir();
    for (const folder of ["x/skills", "y/skills", "z"]) await mkdir(join(base, folder), { recursive: true });

    const { sources } = await setupFs({ roots: ["x/skills", { path: "z", source: "zed" }, "y/skills"] }, base);
    expect(sources.map((source) => source.name)).toEqual(["skills", "zed", "skills-2"]);
  });
});

describe("missing roots", () => {
  it("fails setup with one clear line for a missing root", async () => {
    const base = await tempDir();
    const error = await setupFs({ roots: ["nowhere"] }, base).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginError);
    expect(error).toMatchObject({ exitCode: 2, message: `plugin "fs": root ${join(base, "nowhere")} does not exist` });
  });

  it("fails setup for a root that is a file", async () => {
    const base = await tempDir();
    await writeFile(join(base, "file"), "");
    await expect(setupFs({ roots: ["file"] }, base)).rejects.toThrow(`root ${join(base, "file")} is not a directory`);
  });

  it("adds no source at all when an earlier root is fine but a later one is missing", async () => {
    const base = await tempDir();
    await mkdir(join(base, "present"));
    const fake = createFakeContext(base);
    const options = fsOptionsSchema.parse({
      roots: [
        { path: "present", source: "a" },
        { path: "absent", source: "b" },
      ],
    });
    await expect(fsPlugin.setup(fake.ctx, options)).rejects.toThrow(/absent does not exist/);
    expect(fake.sources).toEqual([]);
  });

  it("keeps a missing optional root in its source, silent until it exists, then scanned at its rank", async () => {
    const base = await tempDir();
    await writeSkillFile(base, "present/skill", skillMd("skill"));

    const fake = await setupFs(
      {
        roots: [
          { path: "absent", source: "mine", optional: true },
          { path: "present", source: "mine", optional: true },
          { path: "gone", optional: true },
        ],
      },
      base,
    );
    expect(fake.sources.map((source) => [source.name, source.capabilities?.localFolders])).toEqual([
      ["mine", [join(base, "absent"), join(base, "present")]],
      ["gone", [join(base, "gone")]],
    ]);
    expect(fake.logs.filter((line) => line.includes("does not exist yet"))).toHaveLength(2);
    const [mine, gone] = fake.sources;
    expect(await mine!.load(new AbortController().signal)).toEqual({
      skills: [expect.objectContaining({ path: "skill", rank: 1 })],
      diagnostics: [],
    });
    expect(await gone!.load(new AbortController().signal)).toEqual({ skills: [], diagnostics: [] });

    // An install or a mkdir after boot is picked up by the next load.
    await writeSkillFile(base, "absent/skill", skillMd("skill", "Installed later."));
    await writeSkillFile(base, "gone/late", skillMd("late"));
    const reloaded = await mine!.load(new AbortController().signal);
    expect(reloaded.skills.map((skill) => [skill.path, skill.rank, skill.description])).toEqual([
      ["skill", 0, "Installed later."],
      ["skill", 1, "The skill skill."],
    ]);
    expect((await gone!.load(new AbortController().signal)).skills.map((skill) => skill.name)).toEqual(["late"]);
  });

  it("still skips an optional root that exists but is not a folder", async () => {
    const base = await tempDir();
    await writeFile(join(base, "file"), "");
    await mkdir(join(base, "dir"));
    const fake = await setupFs({ roots: [{ path: "file", optional: true }, "dir"] }, base);
    expect(fake.sources.map((source) => source.name)).toEqual(["dir"]);
    expect(
      fake.logs.some((line) => line.includes(`skipping optional root ${join(base, "file")}: it is not a directory`)),
    ).toBe(true);
  });

  it("reports a required root that disappears after setup", async () => {
    const base = await tempDir();
    await mkdir(join(base, "skills"));
    const fake = await setupFs({ roots: ["skills"] }, base);
    await rm(join(base, "skills"), { recursive: true });
    expect((await fake.sources[0]!.load(new AbortController().signal)).diagnostics).toEqual([
      expect.objectContaining({ code: "scan-error", path: "" }),
    ]);
  });
});
