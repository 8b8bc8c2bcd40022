import { describe, expect, it } from "vitest";
import { TermList } from "../../../../src/plugins/rankers/ranker-bm25/analyze.js";
import { analyzer, indexTerms } from "./index-terms.js";
import {
  InvertedIndex,
  type Alternative,
  type FieldSpec,
} from "../../../../src/plugins/rankers/ranker-bm25/inverted-index.js";
import { prng } from "../../../../bench/synthetic-catalog.js";

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

const QUERIES = [
  ["alpha"],
  ["deploy", "kubernetes"],
  ["cluster"],
  ["number7", "docker", "tool"],
  ["beta", "gamma", "delta"],
];

/** Every query's scores by document, and its per-word figures; each word's alternatives are its analysed terms. */
function scores(index: InvertedIndex): unknown[] {
  return QUERIES.map((words) => {
    const result = index.score(
      words.map((word) => indexTerms(word).map((term) => ({ term: analyzer.terms.text(term), weight: 1 }))),
    );
    const byDoc = [...result.docs]
      .sort((a, b) => a - b)
      .map((doc) => [doc, result.scores[doc], result.matchedWords[doc]]);
    const figures = { byDoc, best: result.bestPerWord, rarity: result.rarity };
    index.release(result);
    return figures;
  });
}

describe("the inverted index", () => {
  it("lays out a whole catalog at once exactly as it indexes it one document at a time", () => {
    const oneByOne = new InvertedIndex(FIELDS, 1.2, analyzer.terms);
    for (const document of DOCUMENTS) addOne(oneByOne, document);
    const atOnce = new InvertedIndex(FIELDS, 1.2, analyzer.terms);
    atOnce.addAll(DOCUMENTS.length, (i, terms, fieldEnds) => fill(DOCUMENTS[i]!, terms, fieldEnds));
    expect(atOnce.size).toBe(DOCUMENTS.length);
    expect(atOnce.capacity).toBe(DOCUMENTS.length);
    expect(scores(atOnce)).toEqual(scores(oneByOne));
    expect(atOnce.completions("clust", 5)).toEqual(oneByOne.completions("clust", 5));
  });

  it("keeps a catalog laid out at once in step with one built document by document through removals and additions", () => {
    const oneByOne = new InvertedIndex(FIELDS, 1.2, analyzer.terms);
    for (const document of DOCUMENTS) addOne(oneByOne, document);
    const atOnce = new InvertedIndex(FIELDS, 1.2, analyzer.terms);
    atOnce.addAll(DOCUMENTS.length, (i, terms, fieldEnds) => fill(DOCUMENTS[i]!, terms, fieldEnds));
    for (const index of [oneByOne, atOnce]) {
      // Removals inside the shared runs, then additions that move runs into arrays of their own.
      for (let doc = 0; doc < DOCUMENTS.length; doc += 4) removeOne(index, doc, DOCUMENTS[doc]!);
      for (let doc = 0; doc < DOCUMENTS.length; doc += 8)
        expect(addOne(index, DOCUMENTS[doc]!)).toBeGreaterThanOrEqual(DOCUMENTS.length);
      addOne(index, ["alpha kubernetes", "a term only this document has: zebrafish"]);
    }
    expect(atOnce.size).toBe(oneByOne.size);
    expect(scores(atOnce)).toEqual(scores(oneByOne));
    expect(atOnce.has("zebrafish")).toBe(true);
  });

  it("builds only an empty index at once", () => {
    const index = new InvertedIndex(FIELDS, 1.2, analyzer.terms);
    addOne(index, DOCUMENTS[0]!);
    expect(() => index.addAll(1, (i, terms, fieldEnds) => fill(DOCUMENTS[i]!, terms, fieldEnds))).toThrow(
      /empty index/,
    );
  });

  it("refuses more query words than a document's matched-word bits hold", () => {
    const index = new InvertedIndex(FIELDS, 1.2, analyzer.terms);
    addOne(index, DOCUMENTS[0]!);
    const words = Array.from({ length: 33 }, () => [{ term: "tool", weight: 1 }]);
    expect(() => index.score(words)).toThrow(/at most 32 query words/);
  });

  it("scores every document as BM25F defines it, to the bit, as the index grows, loses and regains documents", () => {
    const random = prng(7);
    const fields: FieldSpec[] = [
      { weight: 5, b: 0.5, bonus: 1 },
      { weight: 2, b: 0.75, bonus: 1 },
      { weight: 0.4, b: 0.75 },
    ];
    const randomDocument = (): string[] =>
      fields.map((_, f) =>
        Array.from({ length: 1 + Math.floor(random() * (f === 2 ? 40 : 6)) }, () => pick(random, VOCABULARY)).join(" "),
      );
    const oneByOne = new InvertedIndex(fields, 1.2, analyzer.terms);
    const held = new Map<number, string[]>();
    const add = (index: InvertedIndex, document: string[]) => held.set(addDocument(index, fields, document), document);
    // Past 64 documents and again past 128, the per-document arrays are laid out anew.
    for (let i = 0; i < 150; i++) add(oneByOne, randomDocument());
    expect(scoreAll(oneByOne, random)).toEqual(reference(fields, held, lastQueries));
    // A field too long for a length's two bytes, then gone again.
    const long = ["alpha", "pdf chart", LONG_TEXT];
    const longDoc = addDocument(oneByOne, fields, long);
    held.set(longDoc, long);
    expect(scoreAll(oneByOne, random)).toEqual(reference(fields, held, lastQueries));
    removeDocument(oneByOne, fields, longDoc, long);
    held.delete(longDoc);
    for (const doc of [...held.keys()].filter(() => random() < 0.3)) {
      removeDocument(oneByOne, fields, doc, held.get(doc)!);
      held.delete(doc);
    }
    expect(scoreAll(oneByOne, random)).toEqual(reference(fields, held, lastQueries));
    for (let i = 0; i < 150; i++) add(oneByOne, randomDocument());
    expect(scoreAll(oneByOne, random)).toEqual(reference(fields, held, lastQueries));

    // Laid out at once, sized to the catalog, then grown by the first addition.
    const documents = Array.from({ length: 100 }, randomDocument);
    documents[5] = ["beta", LONG_TEXT, "deploy"];
    const atOnce = new InvertedIndex(fields, 1.2, analyzer.terms);
    atOnce.addAll(documents.length, (i, terms, fieldEnds) => fillFields(documents[i]!, terms, fieldEnds));
    held.clear();
    documents.forEach((document, doc) => held.set(doc, document));
    expect(scoreAll(atOnce, random)).toEqual(reference(fields, held, lastQueries));
    for (let i = 0; i < 20; i++) add(atOnce, randomDocument());
    removeDocument(atOnce, fields, 3, held.get(3)!);
    held.delete(3);
    expect(scoreAll(atOnce, random)).toEqual(reference(fields, held, lastQueries));
  });
});

/** Longer than a field length's two bytes hold. */
const LONG_TEXT = Array.from({ length: 70_000 }, (_, i) => ["report", "lint", "grafana", "table"][i % 4]).join(" ");

const VOCABULARY =
  "deploy cluster kubernetes docker alpha beta gamma delta pdf invoice report chart python rust test lint build release notion sentry grafana metric alert page table form".split(
    " ",
  );

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function fillFields(document: readonly string[], terms: TermList, fieldEnds: Int32Array): void {
  terms.length = 0;
  document.forEach((text, field) => {
    for (const term of indexTerms(text)) terms.push(term);
    fieldEnds[field] = terms.length;
  });
}

function addDocument(index: InvertedIndex, fields: readonly FieldSpec[], document: readonly string[]): number {
  const terms = new TermList();
  const fieldEnds = new Int32Array(fields.length);
  fillFields(document, terms, fieldEnds);
  return index.add(terms.terms, fieldEnds);
}

function removeDocument(
  index: InvertedIndex,
  fields: readonly FieldSpec[],
  doc: number,
  document: readonly string[],
): void {
  const terms = new TermList();
  const fieldEnds = new Int32Array(fields.length);
  fillFields(document, terms, fieldEnds);
  index.remove(doc, terms.terms, fieldEnds);
}

type Query = Alternative[][];
let lastQueries: Query[] = [];

/** Random queries of one to six words, each with one to three alternatives (now and then a term no document has). */
function randomQueries(random: () => number): Query[] {
  return Array.from({ length: 40 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
      Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        term: random() < 0.1 ? "zzzunknown" : analyzer.terms.text(indexTerms(pick(random, VOCABULARY))[0]!),
        weight: pick(random, [1, 0.7, 0.6, 0.42, 0.25]),
      })),
    ),
  );
}

interface Scored {
  byDoc: [number, number, number][];
  best: readonly number[];
  rarity: readonly number[];
}

/** The index's answer to fresh random queries (kept in lastQueries for the reference). */
function scoreAll(index: InvertedIndex, random: () => number): Scored[] {
  lastQueries = randomQueries(random);
  return lastQueries.map((words) => {
    const result = index.score(words);
    const byDoc = [...result.docs]
      .sort((a, b) => a - b)
      .map((doc): [number, number, number] => [doc, result.scores[doc]!, result.matchedWords[doc]!]);
    const scored = { byDoc, best: [...result.bestPerWord], rarity: [...result.rarity] };
    index.release(result);
    return scored;
  });
}

/** BM25F over the documents held, computed from their text alone, in the index's order of operations. */
function reference(
  fields: readonly FieldSpec[],
  held: ReadonlyMap<number, readonly string[]>,
  queries: readonly Query[],
): Scored[] {
  const k1 = 1.2;
  const n = held.size;
  const analysed = new Map([...held].map(([doc, document]) => [doc, document.map((text) => indexTerms(text))]));
  const averages = fields.map(
    (_, f) => [...analysed.values()].reduce((sum, terms) => sum + terms[f]!.length, 0) / n || 1,
  );
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const documentFrequency = (term: number) =>
    [...analysed.values()].filter((terms) => terms.some((field) => field.includes(term))).length;
  const termScore = (terms: number[][], term: number, weightedIdf: number, rareness: number): number => {
    let tf = 0;
    let bonus = 0;
    terms.forEach((field, f) => {
      const count = Math.min(15, field.filter((t) => t === term).length);
      if (count === 0) return;
      const spec = fields[f]!;
      tf += (spec.weight * count) / (1 - spec.b + (spec.b / averages[f]!) * field.length);
      bonus += spec.bonus ?? 0;
    });
    if (tf === 0) return 0;
    let s = (weightedIdf * tf * (k1 + 1)) / (tf + k1);
    if (bonus !== 0) s *= 1 + bonus * rareness;
    return s;
  };
  return queries.map((words) => {
    const totals = new Map<number, [number, number]>();
    const best: number[] = [];
    const rarity: number[] = [];
    words.forEach((alternatives, w) => {
      const wordScores = new Map<number, number>();
      let wordRarity = 0;
      for (const { term: text, weight } of alternatives) {
        const term = analyzer.terms.number(text);
        const df = term === undefined ? 0 : documentFrequency(term);
        if (df === 0) continue;
        wordRarity = Math.max(wordRarity, weight * idf(df));
        for (const [doc, terms] of analysed) {
          const s = termScore(terms, term!, weight * idf(df), (idf(df) / idf(0)) ** 2);
          if (s > (wordScores.get(doc) ?? 0)) wordScores.set(doc, s);
        }
      }
      best.push(Math.max(0, ...wordScores.values()));
      rarity.push(wordRarity || idf(0));
      for (const [doc, s] of wordScores) {
        const [sum, mask] = totals.get(doc) ?? [0, 0];
        totals.set(doc, [sum + s, mask | (1 << w)]);
      }
    });
    const byDoc = [...totals]
      .sort((a, b) => a[0] - b[0])
      .map(([doc, [sum, mask]]): [number, number, number] => [doc, sum, mask]);
    return { byDoc, best, rarity };
  });
}
