import { symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CacheEngine } from "../../../src/cache/engine.js";
import { createMemoryBackend } from "../../../src/cache/memory-backend.js";
import { createLogger } from "../../../src/kernel/logger.js";
import { createReadCache } from "../../../src/plugins/fs/read-cache.js";
import { currentIdentity } from "../../../src/plugins/fs/read-skill-file.js";
import { createFsSource } from "../../../src/plugins/fs/source.js";
import { VERSION } from "../../../src/version.js";
import { waitFor } from "../../helpers/redis.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

const LIMITS = { maxFrontmatterBytes: 65_536, maxSkillFileBytes: 262_144 };
const NAMESPACE = `fs/skill-md@${VERSION}`;

function engine() {
  return new CacheEngine({
    backend: createMemoryBackend({ maxBytes: 10_000_000, maxEntries: 1_000 }),
    logger: createLogger("silent"),
    prefix: "test",
    defaultTtlMs: 60_000,
    operationTimeoutMs: 1_000,
    failureThreshold: 3,
    retryAfterMs: 1_000,
    maxEntryBytes: 1_000_000,
  });
}

function sourceOver(root: string, cache: CacheEngine) {
  return createFsSource({
    name: "test",
    roots: [root],
    maxDepth: 6,
    maxDirectories: 1_000,
    ...LIMITS,
    watch: false,
    maxWatchedDirectories: 0,
    pollIntervalMs: 1_000,
    logger: createLogger("silent"),
    readCache: createReadCache(cache.view("fs"), LIMITS),
  });
}

/** Files older than the racy window, as files on a disk usually are. */
async function age(...paths: string[]) {
  const past = new Date(Date.now() - 60_000);
  for (const path of paths) await utimes(path, past, past);
}

const load = (source: ReturnType<typeof sourceOver>) => source.load(new AbortController().signal);
const entries = async (cache: CacheEngine) => (await cache.stats()).entries?.[NAMESPACE] ?? 0;

describe("the fs source's read cache", () => {
  it("gives a restart the same skills and diagnostics without parsing unchanged files again", async () => {
    const root = await tempDir();
    const files = [
      await writeSkillFile(root, "alpha", skillMd("alpha")),
      await writeSkillFile(root, "beta", "---\nname: beta\n---\nno description\n"),
      await writeSkillFile(root, "nested/gamma", `---\nname: gamma\ndescription: G.\nmetadata: { tags: [a, b] }\n---\n# Gamma\nBody text.\n`),
    ];
    await age(...files);
    const cache = engine();
    const first = await load(sourceOver(root, cache));
    await waitFor("three entries stored", async () => (await entries(cache)) === 3);

    const second = await load(sourceOver(root, cache));
    expect(second).toEqual(first);
    expect(first.diagnostics.map((d) => d.path)).toContain("beta");
    const gamma = second.skills.find((skill) => skill.name === "gamma")!;
    expect(Object.getPrototypeOf(gamma.frontmatter)).toBeNull();
    expect(gamma.frontmatter.metadata).toEqual({ tags: ["a", "b"] });
    expect(await cache.stats()).toMatchObject({ hits: 3, misses: 3 });
  });

  it("reads a file again once it changed", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "Old."));
    await age(file);
    const cache = engine();
    await load(sourceOver(root, cache));
    await waitFor("stored", async () => (await entries(cache)) === 1);
    await writeFile(file, skillMd("alpha", "New and longer."));
    await age(file);
    const after = await load(sourceOver(root, cache));
    expect(after.skills[0]!.description).toBe("New and longer.");
  });

  it("keeps no file written a moment ago, nor a symlinked SKILL.md", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "fresh", skillMd("fresh"));
    const target = await writeSkillFile(root, "linked", skillMd("linked"), "real.md");
    await age(target);
    await symlink(target, join(root, "linked", "SKILL.md"));
    const cache = engine();
    const loaded = await load(sourceOver(root, cache));
    expect(loaded.skills.map((skill) => skill.name)).toEqual(["fresh", "linked"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await entries(cache)).toBe(0);
  });

  it("takes a malformed entry for a miss, and rebuilds a well-formed one as the parser would", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "alpha", skillMd("alpha", "From the file."));
    await age(file);
    const cache = engine();
    const identity = { ...currentIdentity({ path: "alpha", dir: join(root, "alpha"), file, fileKind: "file", linked: false })! };
    const store = cache.view("fs").scope(`skill-md@${VERSION}`);
    const entry = {
      identity,
      folderPath: "alpha",
      limits: `${LIMITS.maxFrontmatterBytes}/${LIMITS.maxSkillFileBytes}`,
      skill: { name: "alpha", description: 42, frontmatter: {}, excerpt: "" },
      issues: [],
    };
    await store.set(file, entry);
    expect((await load(sourceOver(root, cache))).skills[0]!.description).toBe("From the file.");

    // A well-formed entry is taken, with its frontmatter rebuilt as the parser builds it.
    const planted = JSON.parse(`{"name":"alpha","description":"Planted.","frontmatter":{"__proto__":{"polluted":true},"ok":1},"excerpt":""}`);
    await store.set(file, { ...entry, skill: planted });
    const recalled = (await load(sourceOver(root, cache))).skills[0]!;
    expect(recalled.description).toBe("Planted.");
    expect(Object.keys(recalled.frontmatter)).toEqual(["ok"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
