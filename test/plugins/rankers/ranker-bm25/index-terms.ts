import { Analyzer, TermList } from "../../../../src/plugins/rankers/ranker-bm25/analyze.js";

/** The analyser these tests share, as one ranker's documents and queries share theirs. */
export const analyzer = new Analyzer();

/** The numbered index terms of a text, in order, repeated as often as they occur: what a document indexes. */
export function indexTerms(text: string): number[] {
  const out = new TermList();
  analyzer.appendIndexTerms(text, out);
  return [...out.terms.subarray(0, out.length)];
}
