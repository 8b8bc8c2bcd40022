import { describe, expect, it } from "vitest";
import { TermList, termText } from "../../../src/plugins/ranker-bm25/analyze.js";
import { indexTerms } from "./index-terms.js";
import { InvertedIndex, type FieldSpec } from "../../../src/plugins/ranker-bm25/inverted-index.js";

const FIELDS: FieldSpec[] = [
  { weight: 3, b: 0.5, bonus: 1 },
  { weight: 1, b: 0.75 },
];

/** Documents of two fields, with words shared between them and repeated past the 15 a posting counts. */
const DOCUMENTS: [string, string][] = Array.from({ length: 60 }, (_, i) => [
  `tool ${["alpha", "beta", "gamma"][i % 3]} ${i % 4 === 0 ? "kubernetes" : "docker"}`,
  `${"deploy ".repeat(i % 20)} the ${i % 5 === 0 ? "alpha" : "delta"} cluster number${i}`,
]);

function fill(document: [string, string], terms: TermList, fieldEnds: Int32Array): void {
  terms.length = 0;
  document.forEach((text, field) => {
    for (const term of indexTerms(text)) terms.push(term);
    fieldEnds[field] = terms.length;
  });
}

function addOne(index: InvertedIndex, document: [string, string]): number {
  const terms = new TermList();
  const fieldEnds = new Int32Array(FIELDS.length);
  fill(document, terms, fieldEnds);
  return index.add(terms.terms, fieldEnds);
}

function removeOne(index: InvertedIndex, doc: number, document: [string, string]): void {
  const terms = new TermList();
  const fieldEnds = new Int32Array(FIELDS.length);
  fill(document, terms, fieldEnds);
  index.remove(doc, terms.terms, fieldEnds);
}

const QUERIES = [["alpha"], ["deploy", "kubernetes"], ["cluster"], ["number7", "docker", "tool"], ["beta", "gamma", "delta"]];

/** Every query's scores by document, and its per-word figures; each word's alternatives are its analysed terms. */
function scores(index: InvertedIndex): unknown[] {
  return QUERIES.map((words) => {
    const result = index.score(words.map((word) => indexTerms(word).map((term) => ({ term: termText(term), weight: 1 }))));
    const byDoc = [...result.docs].sort((a, b) => a - b).map((doc) => [doc, result.scores[doc], result.matchedWords[doc]]);
    const figures = { byDoc, best: result.bestPerWord, rarity: result.rarity };
    index.release(result);
    return figures;
  });
}

describe("the inverted index", () => {
  it("lays out a whole catalog at once exactly as it indexes it one document at a time", () => {
    const oneByOne = new InvertedIndex(FIELDS, 1.2);
    for (const document of DOCUMENTS) addOne(oneByOne, document);
    const atOnce = new InvertedIndex(FIELDS, 1.2);
    atOnce.addAll(DOCUMENTS.length, (i, terms, fieldEnds) => fill(DOCUMENTS[i]!, terms, fieldEnds));
    expect(atOnce.size).toBe(DOCUMENTS.length);
    expect(atOnce.capacity).toBe(DOCUMENTS.length);
    expect(scores(atOnce)).toEqual(scores(oneByOne));
    expect(atOnce.completions("clust", 5)).toEqual(oneByOne.completions("clust", 5));
  });

  it("keeps a catalog laid out at once in step with one built document by document through removals and additions", () => {
    const oneByOne = new InvertedIndex(FIELDS, 1.2);
    for (const document of DOCUMENTS) addOne(oneByOne, document);
    const atOnce = new InvertedIndex(FIELDS, 1.2);
    atOnce.addAll(DOCUMENTS.length, (i, terms, fieldEnds) => fill(DOCUMENTS[i]!, terms, fieldEnds));
    for (const index of [oneByOne, atOnce]) {
      // Removals inside the shared runs, then additions that move runs into arrays of their own.
      for (let doc = 0; doc < DOCUMENTS.length; doc += 4) removeOne(index, doc, DOCUMENTS[doc]!);
      for (let doc = 0; doc < DOCUMENTS.length; doc += 8) expect(addOne(index, DOCUMENTS[doc]!)).toBeGreaterThanOrEqual(DOCUMENTS.length);
      addOne(index, ["alpha kubernetes", "a term only this document has: zebrafish"]);
    }
    expect(atOnce.size).toBe(oneByOne.size);
    expect(scores(atOnce)).toEqual(scores(oneByOne));
    expect(atOnce.has("zebrafish")).toBe(true);
  });

  it("builds only an empty index at once", () => {
    const index = new InvertedIndex(FIELDS, 1.2);
    addOne(index, DOCUMENTS[0]!);
    expect(() => index.addAll(1, (i, terms, fieldEnds) => fill(DOCUMENTS[i]!, terms, fieldEnds))).toThrow(/empty index/);
  });
});
