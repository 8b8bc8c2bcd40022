import { describe, expect, it } from "vitest";
import { topicWords } from "../../src/skills/topic-words.js";

describe("topic words", () => {
  it("are lower-cased runs of letters and digits of three characters or more, repeats kept", () => {
    expect(topicWords("Extract PDF tables; extract CSV-files, v2 api")).toEqual([
      "extract",
      "pdf",
      "tables",
      "extract",
      "csv",
      "files",
      "api",
    ]);
  });

  it("leave out numbers alone and the words every description uses, but keep words with digits", () => {
    expect(topicWords("Use when the user asks for 300 items in k8s or s3v4")).toEqual(["items", "k8s", "s3v4"]);
  });

  it("count anything past ASCII as a letter, so accents and other scripts stay in their words", () => {
    expect(topicWords("Café résumé — 数据分析 'naïve' İz")).toEqual(["café", "résumé", "数据分析", "naïve", "i̇z"]);
  });
});
