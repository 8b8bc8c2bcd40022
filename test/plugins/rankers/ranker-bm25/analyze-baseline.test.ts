import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baselineSource } from "../../../../bench/baseline-ranker.js";
import { Analyzer, TermList } from "../../../../src/plugins/rankers/ranker-bm25/analyze.js";
import { CORPORA } from "../../../helpers/corpus.js";
import { HOSTILE_QUERIES } from "./skills.js";

/**
 * The analyser before it was reworked for cold starts: what it makes of every text must not
 * change, or the index (and the search quality measured on it) would.
 */
const BEFORE = "3c3596a";
const before = baselineSource(BEFORE);

function skillFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...skillFiles(path));
    else if (entry.name === "SKILL.md") found.push(path);
  }
  return found.sort();
}

type AnalyzerLike = Pick<Analyzer, "appendIndexTerms" | "analyzeWords"> & {
  readonly terms: Pick<Analyzer["terms"], "text">;
};

/** Every text through one analyser, in order, as index terms and as query words. */
function analyseAll(analyzer: AnalyzerLike, List: typeof TermList, texts: readonly string[]) {
  const list = new List();
  return texts.map((text) => {
    list.length = 0;
    analyzer.appendIndexTerms(text, list);
    const terms = [...list.terms.subarray(0, list.length)].map((term) => analyzer.terms.text(term));
    return { terms, words: analyzer.analyzeWords(text.slice(0, 2_000)) };
  });
}

describe.each(CORPORA)("the analyser against itself at $label", (corpus) => {
  const reason = !corpus.present
    ? `${corpus.dir} is absent`
    : !before
      ? `git does not know commit ${BEFORE} (a shallow clone?)`
      : undefined;
  it.skipIf(reason !== undefined)(
    `${reason ? `gives what it gave at ${BEFORE} (skipped: ${reason})` : `gives what it gave at ${BEFORE}`}`,
    async () => {
      const old = (await import(before!.url("src/plugins/rankers/ranker-bm25/analyze.ts"))) as {
        Analyzer: typeof Analyzer;
        TermList: typeof TermList;
      };
      const texts = [
        ...skillFiles(corpus.dir).map((file) => readFileSync(file, "utf8")),
        ...HOSTILE_QUERIES,
        "C++ and C# on .NET: it's Next.js, pre-commit, ci/cd and 仓颉编程 — café",
      ];
      const now = analyseAll(new Analyzer(), TermList, texts);
      const then = analyseAll(new old.Analyzer(), old.TermList, texts);
      expect(now.length).toBe(texts.length);
      now.forEach((analysed, i) => expect(analysed, `text ${i}`).toEqual(then[i]));
    },
    120_000,
  );
});
