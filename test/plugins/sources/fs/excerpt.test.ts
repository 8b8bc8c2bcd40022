import { utimes, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CacheEngine } from "../../../../src/cache/engine.js";
import { createMemoryBackend } from "../../../../src/cache/memory-backend.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { Bm25Ranker } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
import { WholeCatalog } from "../../../../src/skills/catalog/catalog.js";
import type { CatalogChange } from "../../../../src/skills/catalog/catalog-types.js";
import { parseSkillMd } from "../../../../src/skills/skill-md/skill-md.js";
import { setupFs } from "./ctx.js";
import { waitFor } from "../../../helpers/wait.js";
import { age, snapshottedSource, tempDir, writeSkillFile } from "./files.js";

/** Past U+00FF (kept as UTF-8 and decoded when read), and longer than an excerpt. */
const WIDE_BODY = `# Deploy — fast\n\nShip it → production 🚀 with 技能 and zygomorphic flags.\n${"Ω step → next. ".repeat(200)}`;
const skillText = (body: string) => `---\nname: wide\ndescription: Deploys things.\n---\n${body}`;

async function catalogOver(root: string) {
  const { sources } = await setupFs({ roots: [root], watch: false }, root);
  const catalog = new WholeCatalog(createLogger("silent"));
  catalog.addSource(sources[0]!);
  const changes: CatalogChange[] = [];
  catalog.onChange((change) => changes.push(change));
  await catalog.refresh();
  return { catalog, changes };
}

function parsedExcerpt(text: string): string {
  const parsed = parseSkillMd(text, { folderName: "wide", maxFrontmatterBytes: 65_536, truncated: false });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.skill.excerpt;
}

describe("an excerpt with characters past U+00FF", () => {
  it("reads back as parsed, through the catalog, a copy and JSON alike", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "wide", skillText(WIDE_BODY));
    const { catalog } = await catalogOver(root);
    const entry = catalog.get("wide")!;
    const expected = parsedExcerpt(skillText(WIDE_BODY));
    expect(expected).toContain("🚀");
    expect(entry.excerpt).toBe(expected);
    expect({ ...entry }.excerpt).toBe(expected);
    expect(JSON.parse(JSON.stringify(entry)).excerpt).toBe(expected);
    expect(Object.keys(entry)).toContain("excerpt");

    const ranker = new Bm25Ranker();
    ranker.build(catalog.list());
    expect(ranker.search("zygomorphic", { limit: 1 }).map((ranked) => ranked.skill.id)).toEqual(["wide"]);
  });

  it("counts as updated when its text changed, not when its file was only rewritten", async () => {
    const root = await tempDir();
    const file = await writeSkillFile(root, "wide", skillText(WIDE_BODY));
    const { catalog, changes } = await catalogOver(root);
    const updates = () => changes.slice(1).flatMap((change) => change.updated.map((skill) => skill.excerpt));

    await catalog.refresh();
    // The same text, another mtime: read again, the same excerpt.
    await writeFile(file, skillText(WIDE_BODY));
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    await catalog.refresh();
    expect(updates()).toEqual([]);

    const edited = WIDE_BODY.replace("🚀", "🛰️");
    await writeFile(file, skillText(edited));
    await catalog.refresh();
    expect(updates()).toEqual([parsedExcerpt(skillText(edited))]);
  });
});

/** Catalog entries as an embedding app sees them: whether they are plain data, and why not. */
function plainness(entries: readonly object[]) {
  return entries.map((entry) => ({
    symbols: Object.getOwnPropertySymbols(entry).length,
    getters: Object.values(Object.getOwnPropertyDescriptors(entry)).filter((descriptor) => descriptor.get).length,
    cloned: structuredClone(entry),
    json: JSON.parse(JSON.stringify(entry)) as unknown,
  }));
}

describe("a catalog entry", () => {
  it("is plain data, read afresh and recalled from a snapshot: no symbol keys, no getters, cloned and JSON equal to itself", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "wide", skillText(WIDE_BODY));
    await writeSkillFile(
      root,
      "plain",
      "---\nname: plain\ndescription: Plain text.\n---\n# Plain\n\nOnly ASCII here.\n",
    );
    await age(root);
    const cache = new CacheEngine({
      backend: createMemoryBackend({ maxBytes: 10_000_000, maxEntries: 1_000 }),
      logger: createLogger("silent"),
      prefix: "test",
      defaultTtlMs: 60_000,
      operationTimeoutMs: 1_000,
      failureThreshold: 3,
      retryAfterMs: 1_000,
      maxEntryBytes: 1_000_000,
    });
    const loads: (readonly object[])[] = [];
    // The second source, as a restarted process, recalls both skills from the first one's snapshot.
    for (const _ of [1, 2]) {
      const { source, logs } = snapshottedSource(root, cache);
      const catalog = new WholeCatalog(createLogger("silent"));
      catalog.addSource(source);
      await catalog.refresh();
      loads.push(catalog.list());
      if (loads.length === 1)
        await waitFor("the snapshot kept", () => logs.some((line) => line.includes("kept a snapshot")));
      else expect(logs.join("\n")).toContain(": 0 of 2 SKILL.md files read");
    }
    for (const entries of loads) {
      expect(entries).toHaveLength(2);
      for (const [i, { symbols, getters, cloned, json }] of plainness(entries).entries()) {
        expect(symbols).toBe(0);
        expect(getters).toBe(0);
        expect(cloned).toEqual(entries[i]);
        expect(json).toEqual(entries[i]);
      }
    }
  });
});

describe("a SKILL.md longer than the head decoded first", () => {
  // The first read is 8 KiB, of which 4 KiB are decoded first (src/plugins/sources/fs/source.ts).
  const cases: Record<string, string> = {
    // A four-byte character cut by the 4 KiB mark, well past the excerpt.
    "a character across the first mark": `---\nname: wide\ndescription: Deploys things.\n---\n${"a".repeat(4040)}🚀${"b".repeat(5000)}`,
    // The frontmatter closes between 4 and 8 KiB.
    "a frontmatter past the first mark": `---\nname: wide\ndescription: Deploys things.\nnotes: ${"n".repeat(5000)}\n---\n${"Ω body. ".repeat(900)}`,
    // Within 4 KiB the body is shorter than the excerpt.
    "an excerpt past the first mark": `---\nname: wide\ndescription: Deploys things.\nnotes: ${"n".repeat(2500)}\n---\n${"→ body. ".repeat(900)}`,
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`reads ${name} as the whole file parses`, async () => {
      const root = await tempDir();
      await writeSkillFile(root, "wide", text);
      const { catalog } = await catalogOver(root);
      const parsed = parseSkillMd(text, { folderName: "wide", maxFrontmatterBytes: 65_536, truncated: false });
      if (!parsed.ok) throw new Error(parsed.error.message);
      const entry = catalog.get("wide")!;
      expect(entry.excerpt).toBe(parsed.skill.excerpt);
      expect(entry.excerpt.length).toBeGreaterThan(1_990);
      expect({ ...entry.frontmatter }).toEqual({ ...parsed.skill.frontmatter });
    });
  }
});
