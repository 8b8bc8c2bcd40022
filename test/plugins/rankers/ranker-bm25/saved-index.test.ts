import { beforeAll, describe, expect, it } from "vitest";
import { Bm25Ranker } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
import type { CatalogSkill } from "../../../../src/skills/catalog/catalog-types.js";
import { CORPORA } from "../../../helpers/corpus.js";
import { HOSTILE_QUERIES, loadSkills, SAMPLE, snapshot } from "./skills.js";

const QUERIES = [
  "kubernetes deployment",
  "write a commit message",
  "protein structure",
  "seo audit",
  "pdf",
  "react component tests",
  "kube",
  "kubernetse",
  ...HOSTILE_QUERIES,
];

function built(skills: readonly CatalogSkill[]): Bm25Ranker {
  const ranker = new Bm25Ranker();
  ranker.build(skills);
  return ranker;
}

describe("a saved bm25 index", () => {
  it("refuses bytes that are not one, leaving the ranker as it was", () => {
    const saved = built(SAMPLE).saveIndex()!;
    const ranker = built(SAMPLE);
    const before = snapshot(ranker, QUERIES);
    const flipped = new Uint8Array(saved);
    flipped[40] = flipped[40]! ^ 0xff;
    const wrongCount = SAMPLE.slice(1);
    for (const [bytes, skills] of [
      [saved.subarray(0, saved.length - 1), SAMPLE],
      [saved.subarray(0, 20), SAMPLE],
      [new Uint8Array(0), SAMPLE],
      [new TextEncoder().encode("not an index at all, but long enough to have a header"), SAMPLE],
      [saved, wrongCount],
    ] as const) {
      expect(ranker.loadIndex(skills, bytes)).toBe(false);
    }
    // A flipped byte is refused, or loads an index that still answers without throwing.
    const other = new Bm25Ranker();
    if (other.loadIndex(SAMPLE, flipped))
      for (const query of QUERIES) expect(() => other.search(query, { limit: 50 })).not.toThrow();
    expect(snapshot(ranker, QUERIES)).toEqual(before);
  });

  it("is not saved once the index changed after its build", () => {
    const ranker = built(SAMPLE);
    ranker.remove([SAMPLE[0]!.qualifiedId]);
    expect(ranker.saveIndex()).toBeUndefined();
  });
});

describe.each(CORPORA)("a saved bm25 index over $label", (corpus) => {
  const title = corpus.title;
  let skills: readonly CatalogSkill[];

  beforeAll(async () => {
    if (!corpus.present) return;
    skills = await loadSkills([corpus.dir]);
  });

  it.skipIf(!corpus.present)(
    title("loads into a fresh ranker that ranks as the one that built it, and follows changes alike"),
    () => {
      const original = built(skills);
      const loaded = new Bm25Ranker();
      expect(loaded.loadIndex(skills, original.saveIndex()!)).toBe(true);
      expect(snapshot(loaded, QUERIES)).toEqual(snapshot(original, QUERIES));
      for (const s of skills.slice(0, 20))
        expect(loaded.search(s.id, { limit: 1 })[0]?.skill.qualifiedId).toBe(s.qualifiedId);
      // Changes after a load are applied to it as to a built index.
      const removed = skills.filter((_, i) => i % 9 === 0).map((s) => s.qualifiedId);
      for (const ranker of [original, loaded]) {
        ranker.remove(removed);
        ranker.add(skills.slice(0, 5));
      }
      expect(snapshot(loaded, QUERIES)).toEqual(snapshot(original, QUERIES));
      expect(loaded.count("pdf")).toBe(original.count("pdf"));
    },
  );
});
