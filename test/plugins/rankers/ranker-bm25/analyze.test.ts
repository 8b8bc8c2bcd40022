import { describe, expect, it } from "vitest";
import { analyzer, indexTerms } from "./index-terms.js";
import { stem } from "../../../../src/plugins/rankers/ranker-bm25/stem.js";
import { foldPlural } from "../../../../src/plugins/rankers/ranker-bm25/synonyms.js";
import { HOSTILE_QUERIES } from "./skills.js";

const terms = (text: string) => indexTerms(text).map((term) => analyzer.terms.text(term));

describe("the Porter stemmer", () => {
  it("gives the stems of the paper's examples", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      sing: "sing",
      conflated: "conflat",
      hopping: "hop",
      falling: "fall",
      filing: "file",
      relational: "relat",
      conditional: "condit",
      digitizer: "digit",
      operator: "oper",
      hopefulness: "hope",
      electrical: "electr",
      adjustable: "adjust",
      replacement: "replac",
      adoption: "adopt",
      effective: "effect",
      generalizations: "gener",
      controll: "control",
      roll: "roll",
    };
    for (const [word, expected] of Object.entries(cases)) expect(stem(word), word).toBe(expected);
  });

  it("brings inflections together, and British spellings to American ones", () => {
    for (const group of [
      ["deploy", "deploys", "deploying", "deployed", "deployment"],
      ["test", "tests", "testing", "tested"],
      ["organize", "organise", "organizing", "organising", "organization", "organisation"],
      ["analyze", "analyse", "analyzing", "analysing"],
      ["color", "colour", "colors", "colours"],
      ["catalog", "catalogue"],
      ["center", "centre"],
      ["revise", "revision"],
    ]) {
      expect(new Set(group.map(stem)).size, group.join(" ")).toBe(1);
    }
  });

  it("leaves short words, numbers and other scripts alone", () => {
    for (const word of ["go", "ai", "k8s", "3d", "2024", "仓颉", "café"]) expect(stem(word)).toBe(word);
  });
});

describe("the analyzer", () => {
  it("lower-cases, splits compounds and also keeps a short two-part compound joined", () => {
    expect(terms("Next.js pre-commit snake_case")).toEqual(
      expect.arrayContaining(["next", "js", "nextj", "pre", "commit", "precommit", "snake", "case"]),
    );
    expect(terms("scikit-learn")).toEqual(["scikit", "learn"]);
  });

  it("turns C++, C#, F# and .NET into words", () => {
    expect(terms("C++ and C# and F# on .NET")).toEqual(expect.arrayContaining(["cpp", "csharp", "fsharp", "dotnet"]));
  });

  it("drops stop words and possessives", () => {
    expect(terms("I want to write the user's tests")).toEqual(["write", "user", "test", "~test"]);
  });

  it("folds accents and compatibility forms, and cuts Chinese, Japanese and Korean into character pairs", () => {
    expect(terms("Café naïve ＡＢＣ")).toEqual(["cafe", "naiv", "abc"]);
    expect(terms("仓颉语言")).toEqual(["仓颉", "颉语", "语言"]);
    expect(terms("한국어")).toEqual(["한국", "국어"]);
  });

  it("adds the concept of synonym words and phrases next to the words themselves", () => {
    expect(terms("k8s")).toEqual(["k8s", "~kubernetes"]);
    expect(terms("kubernetes")).toEqual(["kubernet", "~kubernetes"]);
    expect(terms("machine learning")).toEqual(["machin", "~machine_learning", "learn"]);
    expect(analyzer.analyzeWords("slides about ML")).toEqual([
      { term: "slide", concepts: ["~presentation"] },
      { term: "ml", concepts: ["~machine_learning"] },
    ]);
  });

  it("reads a query's compound as one word carrying its parts", () => {
    expect(analyzer.analyzeWords("next.js app")).toEqual([
      {
        term: "nextj",
        concepts: [],
        parts: [
          { term: "next", concepts: [] },
          { term: "js", concepts: ["~javascript"] },
        ],
      },
      { term: "app", concepts: ["~application"] },
    ]);
    // Stop words among the parts are dropped from them; the joined form stays.
    expect(analyzer.analyzeWords("to-do list")).toEqual([
      { term: "todo", concepts: [], parts: [] },
      { term: "list", concepts: [] },
    ]);
  });

  it("folds plurals for synonym lookups", () => {
    expect(["images", "queries", "boxes", "status", "class"].map(foldPlural)).toEqual([
      "image",
      "query",
      "boxe",
      "status",
      "class",
    ]);
  });

  it("gives the same terms after its table of known words fills up and is emptied", () => {
    const text = "Deploys k8s clusters with machine learning, pre-commit hooks and Next.js";
    const before = terms(text);
    // More distinct words than the table keeps: it is emptied before the next text.
    const flood = Array.from({ length: 210_000 }, (_, i) => `zq${i.toString(36)}`).join(" ");
    expect(indexTerms(flood)).toHaveLength(210_000);
    expect(terms(text)).toEqual(before);
    expect(terms("zq0 zq1")).toEqual(["zq0", "zq1"]);
  });

  it("skips runs too long to be words, and never throws", () => {
    expect(terms(`${"a".repeat(41)} kubernetes`)).toEqual(["kubernet", "~kubernetes"]);
    for (const query of HOSTILE_QUERIES) expect(() => analyzer.analyzeWords(query)).not.toThrow();
  });
});
