import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Cache, JsonValue } from "../../../../src/kernel/cache.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { EmbeddingsProvider } from "../../../../src/plugins/rankers/ranker-hybrid/index.js";
import { fuse, vectorSay } from "../../../../src/plugins/rankers/ranker-semantic/fusion.js";
import { SemanticRanker, SkillVectors } from "../../../../src/plugins/rankers/ranker-semantic/index.js";
import { createSavedIndexes, matchQuality } from "../../../../src/plugins/tools/search-skills/index.js";
import type { RankedSkill } from "../../../../src/skills/types.js";
import { skill } from "../ranker-bm25/skills.js";

const SKILLS = [
  skill({ name: "slack-gif-creator", description: "Creates animated GIFs for Slack." }),
  skill({ name: "pdf-tables", description: "Extracts tables from PDF files into CSV." }),
  skill({ name: "commit-message", description: "Writes conventional commit messages from staged changes." }),
  skill({ name: "sql-review", description: "Reviews SQL queries for injection risks and slow joins." }),
];

/**
 * A stand-in model: a text's vector counts its words by theme, so "moving picture" is near "GIF"
 * without sharing a word with it. Each text embedded is recorded.
 */
const THEMES = [
  ["gif", "gifs", "animated", "moving", "picture", "looping", "mascot", "slack", "chat"],
  ["pdf", "tables", "csv", "spreadsheet", "extracts"],
  ["commit", "message", "messages", "staged", "changes", "history"],
  ["sql", "queries", "injection", "joins", "database"],
];
class ThemeModel implements EmbeddingsProvider {
  readonly description = "theme-model";
  readonly embedded: string[] = [];
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.embedded.push(...texts);
    return texts.map((text) => {
      const words = text.toLowerCase().split(/[^a-z]+/);
      const vector = Float32Array.from(THEMES.map((theme) => words.filter((w) => theme.includes(w)).length + 0.01));
      const norm = Math.hypot(...vector);
      return vector.map((x) => x / norm);
    });
  }
}

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function semantic(options: { model?: ThemeModel; dir?: string; failing?: boolean } = {}) {
  const model = options.model ?? new ThemeModel();
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "sk-semantic-unit-")));
  folders.push(dir);
  const logs: string[] = [];
  const vectors = new SkillVectors(
    async () => {
      if (options.failing) throw new Error("no model here");
      return model;
    },
    { batchSize: 2, dimensions: THEMES.length },
    createLogger("debug", (line) => logs.push(line)),
    createSavedIndexes(dir, 1024 * 1024),
    undefined,
  );
  const ranker = new SemanticRanker(vectors);
  return { ranker, vectors, model, dir, logs };
}

const ranked = (...scores: number[]): RankedSkill[] => scores.map((score, i) => ({ skill: SKILLS[i]!, score }));

describe("vectorSay", () => {
  it("gives the vectors no say when the words name a skill or find a strong match", () => {
    expect(vectorSay(ranked(100, 40))).toBe(0);
    expect(matchQuality(80, 50)).toBe("strong");
    expect(vectorSay(ranked(80, 50))).toBe(0);
  });

  it("gives them more the weaker and the less clear the words' top result", () => {
    const clearWeak = vectorSay(ranked(30, 10));
    const tiedWeak = vectorSay(ranked(30, 29));
    const tiedStrongish = vectorSay(ranked(70, 68));
    expect(vectorSay(ranked())).toBe(0.75);
    expect(tiedWeak).toBeGreaterThan(clearWeak);
    expect(tiedWeak).toBeGreaterThan(tiedStrongish);
    for (const say of [clearWeak, tiedWeak, tiedStrongish]) expect(say).toBeGreaterThan(0);
  });
});

describe("fuse", () => {
  const neighbours = (...similarities: number[]) =>
    similarities.map((similarity, i) => ({ skill: SKILLS[i]!, similarity }));

  it("brings up what only the vectors found, labelled no better than partial", () => {
    const lexical = [{ skill: SKILLS[2]!, score: 20 }];
    const fused = fuse(lexical, neighbours(0.8, 0.3, 0.1), 0.6, 5);
    expect(fused[0]!.skill.name).toBe("slack-gif-creator");
    expect(fused[0]!.score).toBeLessThanOrEqual(45);
    expect(matchQuality(fused[0]!.score, fused[1]?.score)).not.toBe("strong");
  });

  it("keeps scores from rising down the list and never labels a fused answer strong", () => {
    const lexical = [
      { skill: SKILLS[1]!, score: 75 },
      { skill: SKILLS[3]!, score: 70 },
    ];
    const fused = fuse(lexical, neighbours(0.2, 0.9, 0.1, 0.5), 0.3, 5);
    expect(fused[0]!.skill.name).toBe("pdf-tables");
    const scores = fused.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(fused.every((r, i) => matchQuality(r.score, fused[i + 1]?.score) !== "strong")).toBe(true);
  });

  it("gives vectors that are near everything alike (a query the model cannot read) little say", () => {
    const lexical = [{ skill: SKILLS[2]!, score: 20 }];
    expect(fuse(lexical, neighbours(0.8, 0.3, 0.1), 0.75, 5)[0]!.skill.name).toBe("slack-gif-creator");
    expect(fuse(lexical, neighbours(0.35, 0.3, 0.3), 0.75, 5)[0]!.skill.name).toBe("commit-message");
  });

  it("keeps a skill the query names first, at 100", () => {
    const fused = fuse([{ skill: SKILLS[3]!, score: 100 }], neighbours(0.9, 0.5), 0.5, 5);
    expect(fused[0]).toMatchObject({ score: 100, skill: { name: "sql-review" } });
  });
});

describe("SemanticRanker", () => {
  it("answers by words while warming, then finds by meaning", async () => {
    const { ranker, vectors } = await semantic();
    ranker.build(SKILLS);
    expect(ranker.warming()).toBe(true);
    expect(await ranker.search("a looping moving picture of our mascot", { limit: 3 })).toEqual([]);
    await vectors.settled();
    expect(ranker.warming()).toBe(false);
    const found = await ranker.search("a looping moving picture of our mascot", { limit: 3 });
    expect(found[0]!.skill.name).toBe("slack-gif-creator");
    expect(await ranker.count("a looping moving picture of our mascot", {})).toBeGreaterThan(0);
  });

  it("does not embed the query when the words are sure", async () => {
    const { ranker, vectors, model } = await semantic();
    ranker.build(SKILLS);
    await vectors.settled();
    const before = model.embedded.length;
    expect((await ranker.search("pdf-tables", { limit: 3 }))[0]).toMatchObject({ score: 100 });
    expect(model.embedded.length).toBe(before);
  });

  it("loads the saved vectors at the next start and embeds nothing", async () => {
    const first = await semantic();
    first.ranker.build(SKILLS);
    await first.vectors.settled();
    expect(first.model.embedded).toHaveLength(SKILLS.length);
    const second = await semantic({ dir: first.dir });
    second.ranker.build(SKILLS);
    await second.vectors.settled();
    expect(second.ranker.warming()).toBe(false);
    expect(second.model.embedded).toEqual([]);
    expect(second.logs.some((line) => /4 vectors loaded from the cache folder/.test(line))).toBe(true);
  });

  it("shares vectors through the kernel's cache (Redis), checked when read back", async () => {
    const entries = new Map<string, JsonValue>();
    const cache: Cache = {
      namespace: "ranker-semantic",
      get: async <T extends JsonValue>(key: string) => entries.get(key) as T | undefined,
      set: async (key, value) => void entries.set(key, JSON.parse(JSON.stringify(value)) as JsonValue),
      delete: async (key) => void entries.delete(key),
      scope: () => cache,
    };
    const withCache = (model: ThemeModel) =>
      new SkillVectors(
        async () => model,
        { batchSize: 2, dimensions: THEMES.length },
        createLogger("warn", () => {}),
        undefined,
        cache,
      );
    const first = new ThemeModel();
    new SemanticRanker(withCache(first)).build(SKILLS);
    await expect.poll(() => entries.size).toBe(SKILLS.length);
    // One entry spoiled: that text alone is embedded again.
    const [spoiled] = entries.keys();
    entries.set(spoiled!, [1, 2]);
    const second = new ThemeModel();
    const vectors = withCache(second);
    const ranker = new SemanticRanker(vectors);
    ranker.build(SKILLS);
    await vectors.settled();
    expect(second.embedded).toHaveLength(1);
    expect(ranker.warming()).toBe(false);
  });

  it("ignores saved vectors of another length", async () => {
    const first = await semantic();
    first.ranker.build(SKILLS);
    await first.vectors.settled();
    const vectors = new SkillVectors(
      async () => new ThemeModel(),
      { batchSize: 2, dimensions: 8 },
      createLogger("warn", () => {}),
      createSavedIndexes(first.dir, 1024 * 1024),
      undefined,
    );
    vectors.need(new Map([["k", "a text"]]));
    await vectors.settled();
    expect(vectors.state).toBe("ready");
    // The saved file held vectors of another length: none was taken, the one asked for embedded.
    expect(vectors.embedded).toBe(1);
  });

  it("says once why the model is unavailable, and ranks by words", async () => {
    const { ranker, vectors, logs } = await semantic({ failing: true });
    ranker.build(SKILLS);
    await vectors.settled();
    expect(ranker.warming()).toBe(false);
    expect(logs.filter((line) => /no model here; searching by words alone/.test(line))).toHaveLength(1);
    expect((await ranker.search("sql injection", { limit: 1 }))[0]!.skill.name).toBe("sql-review");
  });
});
