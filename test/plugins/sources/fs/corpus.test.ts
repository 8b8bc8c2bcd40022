import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SourceSnapshot } from "../../../../src/skills/types.js";
import {
  CORPORA,
  type Corpus,
  corpusPath,
  readAnomalies,
  readManifest,
  SHARED_CORPUS,
} from "../../../helpers/corpus.js";
import { loadRoots } from "./ctx.js";

/** What a corpus says about itself, keyed by the path a loader reports (`owner__repo/skill/path`). */
function readCorpusFacts(corpus: Corpus) {
  const manifest = new Map(readManifest(corpus).map(({ repo, path, name }) => [corpusPath(repo, path), name]));
  const anomalies = readAnomalies(corpus);
  const pathsWith = (kind: string) =>
    [...new Set(anomalies.filter((a) => a.kind === kind).map((a) => corpusPath(a.repo, a.path)))].sort();
  return { manifest, pathsWith };
}

describe.each(CORPORA)("the corpus in $label", (corpus) => {
  let snapshot: SourceSnapshot;
  let facts: ReturnType<typeof readCorpusFacts>;

  beforeAll(async () => {
    if (!corpus.present) return;
    facts = readCorpusFacts(corpus);
    const started = performance.now();
    snapshot = await loadRoots([corpus.dir], corpus.dir);
    const elapsed = (performance.now() - started).toFixed(0);
    const byCode = new Map<string, number>();
    for (const { severity, code } of snapshot.diagnostics) {
      byCode.set(`${severity} ${code}`, (byCode.get(`${severity} ${code}`) ?? 0) + 1);
    }
    console.log(
      `${corpus.label}: ${snapshot.skills.length} skills loaded in ${elapsed} ms; diagnostics: ` +
        ([...byCode].map(([code, count]) => `${code} ${count}`).join(", ") || "none"),
    );
  });

  it.skipIf(!corpus.present)(
    corpus.title("serves every manifest skill but those without frontmatter or description"),
    () => {
      const skipped = new Set([...facts.pathsWith("no-frontmatter"), ...facts.pathsWith("missing-description")]);
      expect(skipped.size).toBe(1);
      const expected = [...facts.manifest.keys()].filter((path) => !skipped.has(path)).sort();
      expect(snapshot.skills.map((skill) => skill.path)).toEqual(expected);
      for (const skill of snapshot.skills) expect(skill.name, skill.path).toBe(facts.manifest.get(skill.path));
    },
  );

  it.skipIf(!corpus.present)(corpus.title("reports the skipped skill and the anomalies the corpus lists"), () => {
    const at = (code: string) =>
      snapshot.diagnostics
        .filter((d) => d.code === code)
        .map((d) => d.path)
        .sort();
    expect(snapshot.diagnostics.filter((d) => d.severity === "error")).toMatchObject(
      facts.pathsWith("no-frontmatter").map((path) => ({ path, code: "no-frontmatter" })),
    );
    expect(at("name-mismatch")).toEqual(facts.pathsWith("name-dir-mismatch"));
    expect(at("description-too-long")).toEqual(facts.pathsWith("description>1024-chars"));
  });
});

describe("a root one folder above the shared corpus", () => {
  it.skipIf(!SHARED_CORPUS.present)(SHARED_CORPUS.title("is served whole with the default maxDepth"), async () => {
    // ../shared holds the corpus beside other material: the deepest skills, skills/(category)/<name>/
    // in a cloned repository of a collection, are then 7 folders down, past the old default of 6.
    const inside = await loadRoots([SHARED_CORPUS.dir], SHARED_CORPUS.dir);
    const above = await loadRoots([dirname(SHARED_CORPUS.dir)], dirname(SHARED_CORPUS.dir));
    expect(above.skills).toHaveLength(inside.skills.length);
    expect(above.diagnostics.filter((diagnostic) => diagnostic.code === "below-max-depth")).toEqual([]);
  });
});
