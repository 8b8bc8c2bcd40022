import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Cache, JsonValue } from "../../../../src/kernel/cache.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { Bm25Ranker } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
import { EmbeddingsError, OpenAiEmbeddings } from "../../../../src/plugins/rankers/ranker-hybrid/embeddings.js";
import { LRUCache } from "lru-cache";
import { HybridRanker } from "../../../../src/plugins/rankers/ranker-hybrid/ranker.js";
import { type EmbeddingsFixture, startEmbeddingsFixture } from "./fixture-server.js";
import { SKILLS } from "./skills.js";

let fixture: EmbeddingsFixture;
beforeAll(async () => {
  fixture = await startEmbeddingsFixture();
});
afterAll(() => fixture.close());
afterEach(() => {
  fixture.mode = "ok";
  fixture.requests.length = 0;
});

function hybrid(options: { timeoutMs?: number; cache?: number; shared?: Cache; vectorWeight?: number } = {}) {
  const logs: string[] = [];
  const ranker = new HybridRanker(
    new Bm25Ranker(),
    new OpenAiEmbeddings({ url: fixture.url, model: "fixture-model", timeoutMs: options.timeoutMs ?? 5000 }),
    new LRUCache<string, Float32Array>({ max: options.cache ?? 1000 }),
    { candidates: 50, rrfK: 60, vectorWeight: options.vectorWeight ?? 1, batchSize: 2, warmupWaitMs: 1000 },
    createLogger("debug", (line) => logs.push(line)),
    options.shared,
  );
  return { ranker, logs };
}

/** The Cache contract over a Map: no cache plugin is on main yet to test against. */
function mapCache(entries = new Map<string, JsonValue>(), namespace = "ranker-hybrid"): Cache {
  return {
    namespace,
    get: async <T extends JsonValue>(key: string) => entries.get(`${namespace}:${key}`) as T | undefined,
    set: async (key, value) => void entries.set(`${namespace}:${key}`, JSON.parse(JSON.stringify(value)) as JsonValue),
    delete: async (key) => void entries.delete(`${namespace}:${key}`),
    scope: (name) => mapCache(entries, `${namespace}/${name}`),
  };
}

/** Wait until the background embedding of the catalog has sent its last batch. */
async function warmed(texts: number, batchSize = 2) {
  await expect
    .poll(() => fixture.requests.length, { timeout: 5000 })
    .toBeGreaterThanOrEqual(Math.ceil(texts / batchSize));
}

describe("the hybrid ranker", () => {
  it("finds by meaning what no word of the query matches, and labels it by the words' evidence", async () => {
    const { ranker } = hybrid();
    ranker.build(SKILLS);
    await warmed(SKILLS.length);
    const lexicalOnly = new Bm25Ranker();
    lexicalOnly.build(SKILLS);
    expect(lexicalOnly.search("nightfall", { limit: 5 })).toEqual([]);
    const [top] = await ranker.search("nightfall", { limit: 5 });
    expect(top?.skill.name).toBe("dusk-photo-editor");
    // No word matched: the fused score carries the lexical side's confidence, none.
    expect(top?.score).toBe(0);
    ranker.close();
  });

  it("ranks first what both sides agree on, and keeps a query that names a skill at 100", async () => {
    const { ranker } = hybrid();
    ranker.build(SKILLS);
    await warmed(SKILLS.length);
    const results = await ranker.search("billing invoices for a customer", { limit: 3 });
    expect(results[0]?.skill.name).toBe("invoice-generator");
    expect(results[0]!.score).toBeGreaterThan(0);
    expect(results[0]!.score).toBeLessThan(100);
    expect((await ranker.search("csv-tools", { limit: 2 }))[0]).toMatchObject({
      score: 100,
      skill: { name: "csv-tools" },
    });
    for (const query of ["invoices", "nightfall", "conventional commit messages"]) {
      expect(await ranker.count(query, {})).toBe((await ranker.search(query, { limit: 50 })).length);
    }
    ranker.close();
  });

  it("lets a vector side weighted under the words bring what they miss, not overturn their clear lead", async () => {
    const lexicalOnly = new Bm25Ranker();
    lexicalOnly.build(SKILLS);
    const [lexicalTop, lexicalSecond] = lexicalOnly.search("csv invoices pdf", { limit: 2 });
    expect(lexicalTop?.skill.name).toBe("invoice-generator");
    expect(lexicalTop!.score).toBeGreaterThan(1.5 * lexicalSecond!.score);
    const tops: Record<number, { name: string; score: number }> = {};
    for (const vectorWeight of [1, 0.25]) {
      const { ranker } = hybrid({ vectorWeight });
      ranker.build(SKILLS);
      await warmed(SKILLS.length);
      const [top] = await ranker.search("csv invoices pdf", { limit: 3 });
      tops[vectorWeight] = { name: top!.skill.name, score: top!.score };
      expect((await ranker.search("nightfall", { limit: 1 }))[0]?.skill.name).toBe("dusk-photo-editor");
      ranker.close();
      fixture.requests.length = 0;
    }
    // With equal say, the vectors' preference wins the fusion, scored by its own words; at a
    // quarter, the words' lead holds, and so does their score.
    expect(tops[1]).toEqual({ name: "csv-tools", score: lexicalSecond!.score });
    expect(tops[0.25]).toEqual({ name: "invoice-generator", score: lexicalTop!.score });
  });

  it("embeds each text once: the catalog in batches, then only new queries", async () => {
    const { ranker } = hybrid();
    ranker.build(SKILLS);
    await warmed(SKILLS.length);
    const catalogRequests = fixture.requests.length;
    expect(fixture.requests.slice(0, catalogRequests).flatMap((r) => r.input)).toHaveLength(SKILLS.length);
    expect(fixture.requests.every((r) => r.model === "fixture-model" && r.input.length <= 2)).toBe(true);
    await ranker.search("staged changes", { limit: 3 });
    await ranker.search("staged changes", { limit: 3 });
    expect(fixture.requests.slice(catalogRequests).flatMap((r) => r.input)).toEqual(["staged changes"]);
    // An edited skill is embedded anew; a removed one is no longer found.
    ranker.add([{ ...SKILLS[3]!, description: "Converts CSV files at sunset." }]);
    ranker.remove([SKILLS[0]!.qualifiedId]);
    await expect
      .poll(() => fixture.requests.some((r) => r.input.includes("csv-tools: Converts CSV files at sunset.")))
      .toBe(true);
    expect((await ranker.search("nightfall", { limit: 5 }))[0]?.skill.name).toBe("csv-tools");
    ranker.close();
  });

  it("keeps vectors in the shared cache, so another process embeds nothing again", async () => {
    const shared = mapCache();
    const first = hybrid({ shared });
    first.ranker.build(SKILLS);
    await warmed(SKILLS.length);
    await first.ranker.search("nightfall", { limit: 1 });
    first.ranker.close();
    const sent = fixture.requests.length;
    const second = hybrid({ shared });
    second.ranker.build(SKILLS);
    expect((await second.ranker.search("nightfall", { limit: 1 }))[0]?.skill.name).toBe("dusk-photo-editor");
    expect(fixture.requests.length).toBe(sent);
    second.ranker.close();
  });

  it("answers by words alone while the endpoint fails, saying so once, and recovers", async () => {
    fixture.mode = "500";
    const { ranker, logs } = hybrid();
    ranker.build(SKILLS);
    const lexical = new Bm25Ranker();
    lexical.build(SKILLS);
    for (let i = 0; i < 3; i++) {
      expect(await ranker.search("commit messages", { limit: 3 })).toEqual(
        lexical.search("commit messages", { limit: 3 }),
      );
    }
    const warnings = logs.filter((line) => line.includes("embeddings failed"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/answered HTTP 500: \{"error":"model not loaded"\}/);
    fixture.mode = "ok";
    await ranker.search("commit messages", { limit: 3 });
    expect(logs.some((line) => line.includes("embeddings work again"))).toBe(true);
    ranker.close();
  });

  it("gives up on a slow endpoint after its timeout", async () => {
    fixture.mode = "slow";
    const { ranker, logs } = hybrid({ timeoutMs: 200 });
    ranker.build([]);
    ranker.add(SKILLS);
    expect((await ranker.search("csv files", { limit: 1 }))[0]?.skill.name).toBe("csv-tools");
    expect(logs.some((line) => /did not answer within 200 ms/.test(line))).toBe(true);
    ranker.close();
  });

  it("never scores a result above its own words' evidence, nor above the result ranked before it", async () => {
    const { ranker } = hybrid();
    ranker.build(SKILLS);
    await warmed(SKILLS.length);
    const lexicalOnly = new Bm25Ranker();
    lexicalOnly.build(SKILLS);
    for (const query of [
      "nightfall invoices",
      "billing for dusk photographs",
      "csv invoices",
      "twilight commit messages",
    ]) {
      const lexical = new Map(lexicalOnly.search(query, { limit: 10 }).map((r) => [r.skill.name, r.score]));
      const results = await ranker.search(query, { limit: 10 });
      // The vectors bring up a skill the words did not match ("nightfall" is near "dusk"): it is listed, at 0.
      if (query === "nightfall invoices") expect(results.map((r) => r.skill.name)).toContain("dusk-photo-editor");
      results.forEach((result, i) => {
        expect(result.score, `${query}: ${result.skill.name}`).toBeLessThanOrEqual(lexical.get(result.skill.name) ?? 0);
        if (i > 0) expect(result.score).toBeLessThanOrEqual(results[i - 1]!.score);
      });
    }
    ranker.close();
  });
});

describe("the embeddings client", () => {
  const client = (apiKey?: string) =>
    new OpenAiEmbeddings({ url: `${fixture.url}/`, model: "m", apiKey, timeoutMs: 5000 });

  it("posts the texts to {url}/embeddings and returns unit vectors in order", async () => {
    const vectors = await client("secret-key").embed(["dusk", "twilight", "csv"]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect([...vectors[0]!]).toEqual([...vectors[1]!]); // one group: one direction
    expect(fixture.requests[0]?.headers.authorization).toBe("Bearer secret-key");
    expect(await client().embed([])).toEqual([]);
  });

  it.each([
    ["500", /answered HTTP 500/],
    ["not-json", /something other than JSON/],
    ["wrong-count", /without 2 embeddings/],
    ["bad-number", /bad embedding in data\[0\]/],
    ["ragged", /different lengths/],
  ] as const)("refuses an answer that is %s", async (mode, message) => {
    fixture.mode = mode;
    await expect(client().embed(["a", "b"])).rejects.toThrow(message);
    await expect(client().embed(["a", "b"])).rejects.toBeInstanceOf(EmbeddingsError);
  });

  it("says when the endpoint cannot be reached", async () => {
    const closed = new OpenAiEmbeddings({ url: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2000 });
    await expect(closed.embed(["a"])).rejects.toThrow(/could not be reached/);
  });
});
