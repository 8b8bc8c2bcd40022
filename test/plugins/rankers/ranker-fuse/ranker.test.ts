import { describe, expect, it } from "vitest";
import { FUSE_OPTIONS, FuseRanker } from "../../../../src/plugins/rankers/ranker-fuse/ranker.js";
import { HOSTILE_QUERIES, SAMPLE, skill, snapshot } from "../ranker-bm25/skills.js";

function ranker(skills = SAMPLE): FuseRanker {
  const r = new FuseRanker();
  r.build(skills);
  return r;
}

const names = (r: FuseRanker, query: string, limit = 5, source?: string) =>
  r.search(query, { limit, source }).map((result) => result.skill.name);

describe("the fuse ranker", () => {
  it("keeps the agent-skills MCP server's settings", () => {
    expect(FUSE_OPTIONS).toMatchObject({
      keys: [
        { name: "name", weight: 0.45 },
        { name: "triggers", weight: 0.3 },
        { name: "description", weight: 0.2 },
        { name: "category", weight: 0.05 },
      ],
      threshold: 0.4,
      useExtendedSearch: true,
      minMatchCharLength: 2,
    });
  });

  it("finds a skill by its name, scored 100 when it is the whole name", () => {
    const r = ranker();
    const [top] = r.search("commit-message-writer", { limit: 3 });
    expect(top?.skill.name).toBe("commit-message-writer");
    expect(top?.score).toBe(100);
    expect(names(r, "kubernetes")[0]).toBe("k8s-deployer");
  });

  it("ANDs the words of a query, as extended search does: a task in a sentence finds nothing", () => {
    expect(ranker().search("I need to deploy my containers to the cluster", { limit: 5 })).toEqual([]);
  });

  it("scores from 0 to 100, best first", () => {
    const r = ranker();
    for (const query of ["pdf", "write", "deck", "tables"]) {
      const scores = r.search(query, { limit: 10 }).map((x) => x.score);
      for (const score of scores) expect(score).toBeGreaterThanOrEqual(0), expect(score).toBeLessThanOrEqual(100);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it("reads the category from the frontmatter or its metadata", () => {
    expect(names(ranker(), "office")).toEqual(["spreadsheet-formulas"]);
  });

  it("honours the limit and the source filter", () => {
    const r = ranker();
    expect(r.search("s", { limit: 0 })).toEqual([]);
    expect(r.search("writes", { limit: 1 })).toHaveLength(1);
    expect(names(r, "tables", 5, "other")).toEqual(["pdf-tables"]);
    expect(names(r, "pdf-tables", 5, "test")).not.toContain("pdf-tables");
  });

  it("keeps up with additions, removals and updates, ending where a rebuild in the same order would", () => {
    const queries = ["kubernetes", "tables", "commit", "deck", "excel", "postgres", "nomad"];
    const r = new FuseRanker();
    r.build(SAMPLE.slice(0, 3));
    r.add(SAMPLE.slice(3));
    r.remove([SAMPLE[1]!.qualifiedId, "test:not-indexed"]);
    const edited = { ...SAMPLE[0]!, description: "Deploys to Nomad clusters." };
    r.add([edited]);
    r.add([SAMPLE[1]!]);
    const expected = ranker([SAMPLE[2]!, ...SAMPLE.slice(3), edited, SAMPLE[1]!]);
    expect(snapshot(r, queries)).toEqual(snapshot(expected, queries));
    expect(names(r, "nomad")).toEqual(["k8s-deployer"]);
  });

  it("survives hostile queries", () => {
    const r = ranker([
      ...SAMPLE,
      ...Array.from({ length: 300 }, (_, i) => skill({ name: `filler-${i}`, description: `Filler ${i}.` })),
    ]);
    for (const query of HOSTILE_QUERIES) expect(() => r.search(query, { limit: 10 }), query.slice(0, 30)).not.toThrow();
  });
});
