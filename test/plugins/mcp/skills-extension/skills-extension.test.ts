import { rm, truncate, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Cache, JsonValue } from "../../../../src/kernel/cache.js";
import { definePlugin } from "../../../../src/kernel/config.js";
import { TOKENS } from "../../../../src/tokens.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import skillsExtension from "../../../../src/plugins/mcp/skills-extension/index.js";
import { startSkillServer, type SkillServer } from "../../../helpers/skill-server.js";
import {
  GetSkillResultSchema,
  listAllSkills,
  ListSkillsResultSchema,
  requestError,
  verifySkill,
} from "../../../helpers/skills-host.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

async function get(server: SkillServer, uri: string) {
  return (await server.client.request({ method: "skills/get", params: { uri } }, GetSkillResultSchema)).skill;
}

async function withServer(
  root: string,
  test: (server: SkillServer) => Promise<void>,
  options: Record<string, unknown> = {},
) {
  const server = await startSkillServer([root], ["skill-resources", ["skills-extension", options]], { watch: false });
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

describe("skills-extension entries", () => {
  it("hashes a file once per version: same size and mtime keep the digest, a new mtime recomputes it", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    const file = await writeSkillFile(root, "s", "first", "notes.txt");
    const when = new Date("2026-01-01T00:00:00Z");
    await utimes(file, when, when);
    await withServer(root, async (server) => {
      const first = (await get(server, "skill://s/SKILL.md")).resources[1]!;
      // Same length, same mtime: the version key is unchanged, so the digest is not computed again.
      await writeFile(file, "again");
      await utimes(file, when, when);
      expect((await get(server, "skill://s/SKILL.md")).resources[1]).toEqual(first);
      // A new mtime is a new version.
      const later = new Date("2026-01-02T00:00:00Z");
      await utimes(file, later, later);
      const fresh = await get(server, "skill://s/SKILL.md");
      expect(fresh.resources[1]!.digest).not.toBe(first.digest);
      await verifySkill(server.client, fresh);
    });
  });

  it("keeps digests in the cache service when one is configured, so a second server does not hash again", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    const file = await writeSkillFile(root, "s", "first", "notes.txt");
    const when = new Date("2026-01-01T00:00:00Z");
    await utimes(file, when, when);
    // A whole cache backend in a Map: the Cache contract, shared by both servers below.
    const stored = new Map<string, JsonValue>();
    const view = (namespace: string): Cache => ({
      namespace,
      get: async <T extends JsonValue>(key: string) => stored.get(`${namespace}/${key}`) as T | undefined,
      set: async (key, value) => void stored.set(`${namespace}/${key}`, value),
      delete: async (key) => void stored.delete(`${namespace}/${key}`),
      scope: (name) => view(`${namespace}/${name}`),
    });
    const cachePlugin = definePlugin({
      name: "map-cache",
      provides: [TOKENS.Cache],
      setup: (ctx) => ctx.provideScoped(TOKENS.Cache, (consumer) => view(consumer.name)),
    });
    const serve = () =>
      startSkillServer([root], [cachePlugin, "skill-resources", "skills-extension"], { watch: false });

    const first = await serve();
    const digest = (await get(first, "skill://s/SKILL.md")).resources[1]!.digest;
    await first.close();
    expect([...stored.keys()].every((key) => key.startsWith("skills-extension/"))).toBe(true);
    // Same size and mtime, other bytes: only a digest kept in the cache can still say "first".
    await writeFile(file, "again");
    await utimes(file, when, when);
    const second = await serve();
    try {
      expect((await get(second, "skill://s/SKILL.md")).resources[1]!.digest).toBe(digest);
    } finally {
      await second.close();
    }
  });

  it("keeps the SKILL.md's bytes exactly: a BOM, CRLF line ends and frontmatter a host parses the same", async () => {
    const root = await tempDir();
    await writeSkillFile(
      root,
      "crlf",
      "\uFEFF---\r\nname: crlf\r\ndescription: Windows line ends.\r\nempty:\r\n---\r\n# Body\r\n",
    );
    await withServer(root, async (server) => {
      const entry = await get(server, "skill://crlf/SKILL.md");
      expect(entry.frontmatter).toEqual({ name: "crlf", description: "Windows line ends.", empty: null });
      await verifySkill(server.client, entry);
    });
  });

  it("leaves out a skill over 16 MiB, and one whose frontmatter JSON or a host would not read the same", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "huge", skillMd("huge"));
    await truncate(await writeSkillFile(root, "huge", "", "data.bin"), 16 * 1024 * 1024);
    await writeSkillFile(root, "at-limit", skillMd("at-limit"));
    await truncate(
      await writeSkillFile(root, "at-limit", "", "data.bin"),
      16 * 1024 * 1024 - skillMd("at-limit").length,
    );
    await writeSkillFile(root, "inf", "---\nname: inf\ndescription: d\nweight: .inf\n---\n");
    await writeSkillFile(root, "dup", "---\nname: dup\ndescription: d\ndescription: e\n---\n");
    const latin = await writeSkillFile(root, "latin", "");
    await writeFile(latin, Buffer.from("---\nname: latin\ndescription: caf\xe9\n---\n", "latin1"));
    await withServer(root, async (server) => {
      const { skills } = await listAllSkills(server.client);
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://at-limit/SKILL.md"]);
      expect(skills[0]!.resources.reduce((sum, resource) => sum + resource.size, 0)).toBe(16 * 1024 * 1024);
      for (const [uri, reason] of <[string, string][]>[
        [
          "skill://huge/SKILL.md",
          `its files total ${16 * 1024 * 1024 + skillMd("huge").length} bytes, over the extension's limit of 16777216 (16 MiB)`,
        ],
        ["skill://inf/SKILL.md", "its frontmatter holds a value JSON cannot carry"],
        [
          "skill://dup/SKILL.md",
          'its frontmatter would not parse the same for a host: key "description" appears more than once',
        ],
        ["skill://latin/SKILL.md", "its SKILL.md is not valid UTF-8"],
      ]) {
        // The SDK answers -32602 for what the source does not serve; the log says why.
        expect(await requestError(server.client, "skills/get", { uri })).toMatchObject({
          code: -32602,
          message: expect.stringContaining(uri),
        });
        expect(server.logs.join("\n")).toContain(`${uri} is left out of the skills extension (`);
        expect(server.logs.join("\n")).toContain(reason);
      }
      // Said once in the log per skill and reason, however often it is listed.
      await listAllSkills(server.client);
      expect(server.logs.filter((line) => line.includes("skill://huge/SKILL.md is left out"))).toHaveLength(1);
    });
  });

  it("lets the SDK drop an entry it finds invalid (metadata that is not strings), saying so in the log", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "good", skillMd("good"));
    await writeSkillFile(root, "tagged", "---\nname: tagged\ndescription: d\nmetadata:\n  tags: [a, b]\n---\n");
    await withServer(root, async (server) => {
      const { skills } = await listAllSkills(server.client);
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://good/SKILL.md"]);
      expect(server.logs.join("\n")).toMatch(
        /skill:\/\/tagged\/SKILL\.md.*invalid skill entry from the source: frontmatter metadata must map strings to strings/,
      );
    });
  });

  it("says in the log why a skill has no URI, and answers skills/get for it as for any unknown URI", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "tools", skillMd("tools"));
    await writeSkillFile(root, "tools/converter", skillMd("convert"));
    await withServer(root, async (server) => {
      const { skills } = await listAllSkills(server.client);
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://tools/SKILL.md"]);
      expect(skills[0]!.resources.map((resource) => resource.uri)).toContain("skill://tools/converter/SKILL.md");
      expect(server.logs.join("\n")).toMatch(
        /:convert has no skill:\/\/ URI \(nested-name-mismatch\): it is nested in skill:\/\/tools\/SKILL.md/,
      );
      expect(
        await requestError(server.client, "skills/get", { uri: "skill://tools/converter/SKILL.md" }),
      ).toMatchObject({
        code: -32602,
        message: expect.stringContaining("skill://tools/converter/SKILL.md"),
      });
    });
  });

  it("resumes a listing after its cursor even when skills come and go between pages", async () => {
    const root = await tempDir();
    for (const name of ["a", "b", "c", "d"]) await writeSkillFile(root, name, skillMd(name));
    const server = await startSkillServer([root], ["skill-resources", ["skills-extension", { pageSize: 2 }]]);
    try {
      const first = await server.client.request({ method: "skills/list", params: {} }, ListSkillsResultSchema);
      expect(first.skills.map((skill) => skill.frontmatter.name)).toEqual(["a", "b"]);
      await writeSkillFile(root, "aa", skillMd("aa"));
      await rm(join(root, "b"), { recursive: true });
      await server.kernel.catalog.refresh();
      const second = await server.client.request(
        { method: "skills/list", params: { cursor: first.nextCursor } },
        ListSkillsResultSchema,
      );
      expect(second.skills.map((skill) => skill.frontmatter.name)).toEqual(["c", "d"]);
      expect(second.nextCursor).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("refuses params that are not an object, and cursors it did not give", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    await withServer(root, async (server) => {
      expect(await requestError(server.client, "skills/list", { cursor: 7 })).toMatchObject({
        code: -32602,
        message: expect.stringContaining("cursor"),
      });
      expect(await requestError(server.client, "skills/list", { cursor: "x".repeat(10_000) })).toMatchObject({
        code: -32602,
      });
      expect(
        await requestError(server.client, "resources/directory/read", { uri: "skill://s", cursor: "e30" }),
      ).toMatchObject({
        code: -32602,
        message: expect.stringContaining("the cursor is not one this server gave; start again without a cursor"),
      });
    });
  });
});

describe("skills-extension configuration", () => {
  it("serves the files its entries name by itself, and with skill-resources lists the completing template after its own", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    await writeSkillFile(root, "s/references", "guide", "guide.md");
    const alone = await startSkillServer([root], ["skills-extension"]);
    try {
      const { skills } = await listAllSkills(alone.client);
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://s/SKILL.md"]);
      await verifySkill(alone.client, skills[0]!);
      expect((await alone.client.listResources()).resources.map((resource) => resource.uri)).toEqual([
        "skill://s/SKILL.md",
      ]);
    } finally {
      await alone.close();
    }
    // In either order: skill-resources has the extension attached before its own template, so the
    // SDK's answers every read, however the two plugins are set up.
    for (const plugins of [
      ["skill-resources", "skills-extension"],
      ["skills-extension", "skill-resources"],
    ]) {
      const both = await startSkillServer([root], plugins);
      try {
        const { resourceTemplates } = await both.client.listResourceTemplates();
        expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
          "skill://{+path}",
          "skill://{skill}/{+path}",
        ]);
        await verifySkill(both.client, (await listAllSkills(both.client)).skills[0]!);
      } finally {
        await both.close();
      }
    }
  });

  it("refuses an option it does not know", async () => {
    const root = await tempDir();
    await expect(startSkillServer([root], ["skill-resources", ["skills-extension", { pagesize: 5 }]])).rejects.toThrow(
      /pagesize/,
    );
  });

  it("is the built-in plugin named skills-extension, in the default plugin list", async () => {
    expect(await builtinPlugins["skills-extension"]!()).toBe(skillsExtension);
    const { EMBEDDED_DEFAULT_CONFIG } = await import("../../../../src/cli/default-config.js");
    expect(EMBEDDED_DEFAULT_CONFIG.plugins).toContain("skills-extension");
  });
});
