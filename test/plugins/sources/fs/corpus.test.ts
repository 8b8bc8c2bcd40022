import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { SourceSnapshot } from "../../../../src/skills/types.js";
import { loadRoots } from "./ctx.js";

// ../shared/corpus beside the repository: 700 real skills, read-only.
const CORPUS = fileURLToPath(new URL("../../../../../shared/corpus", import.meta.url));
const HAS_CORPUS = existsSync(join(CORPUS, "MANIFEST.tsv"));

/** What the corpus says about itself, keyed by the path a loader reports (`owner__repo/skill/path`). */
function readCorpusFacts() {
  const corpusPath = (repo: string, skillPath: string) => `${repo.replace("/", "__")}/${skillPath}`;
  const manifest = new Map<string, string>();
  for (const row of readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1)) {
    const [repo, , skillPath, name] = row.split("\t");
    manifest.set(corpusPath(repo!, skillPath!), name!);
  }
  const anomalies = new Map<string, string[]>();
  for (const line of readFileSync(join(CORPUS, "ANOMALIES.txt"), "utf8").split("\n")) {
    const [repo, skillPath, detail] = line.split("\t");
    if (detail === undefined) continue;
    const kind = detail.split(" ")[0]!;
    anomalies.set(kind, [...(anomalies.get(kind) ?? []), corpusPath(repo!, skillPath!)]);
  }
  const pathsWith = (kind: string) => [...new Set(anomalies.get(kind) ?? [])].sort();
  return { manifest, pathsWith };
}

describe("the shared corpus", () => {
  let snapshot: SourceSnapshot;
  let facts: ReturnType<typeof readCorpusFacts>;

  beforeAll(async () => {
    if (!HAS_CORPUS) return;
    facts = readCorpusFacts();
    const started = performance.now();
    snapshot = await loadRoots([CORPUS], CORPUS);
    const elapsed = (performance.now() - started).toFixed(0);
    const byCode = new Map<string, number>();
    for (const { severity, code } of snapshot.diagnostics) {
      byCode.set(`${severity} ${code}`, (byCode.get(`${severity} ${code}`) ?? 0) + 1);
    }
    console.log(
      `corpus: ${snapshot.skills.length} skills loaded in ${elapsed} ms; diagnostics: ` +
        ([...byCode].map(([code, count]) => `${code} ${count}`).join(", ") || "none"),
    );
  });

  const title = (text: string) => (HAS_CORPUS ? text : `${text} (skipped: ../shared/corpus is absent)`);

  it.skipIf(!HAS_CORPUS)(title("serves every manifest skill but those without frontmatter or description"), () => {
    const skipped = new Set([...facts.pathsWith("no-frontmatter"), ...facts.pathsWith("missing-description")]);
    expect(skipped.size).toBe(1);
    const expected = [...facts.manifest.keys()].filter((path) => !skipped.has(path)).sort();
    expect(snapshot.skills.map((skill) => skill.path)).toEqual(expected);
    for (const skill of snapshot.skills) expect(skill.name, skill.path).toBe(facts.manifest.get(skill.path));
  });

  it.skipIf(!HAS_CORPUS)(title("reports the skipped skill and the anomalies the corpus lists"), () => {
    const at = (code: string) => snapshot.diagnostics.filter((d) => d.code === code).map((d) => d.path).sort();
    expect(snapshot.diagnostics.filter((d) => d.severity === "error")).toMatchObject(
      facts.pathsWith("no-frontmatter").map((path) => ({ path, code: "no-frontmatter" })),
    );
    expect(at("name-mismatch")).toEqual(facts.pathsWith("name-dir-mismatch"));
    expect(at("description-too-long")).toEqual(facts.pathsWith("description>1024-chars"));
  });

  it.skipIf(!HAS_CORPUS)(title("serves every skill of a root holding the corpus with the default maxDepth"), async () => {
    // ../shared holds the corpus beside other material: the deepest skills, skills/(category)/<name>/
    // in a cloned repository of a collection, are then 7 folders down, past the old default of 6.
    const above = await loadRoots([join(CORPUS, "..")], join(CORPUS, ".."));
    expect(above.skills).toHaveLength(snapshot.skills.length);
    expect(above.diagnostics.filter((diagnostic) => diagnostic.code === "below-max-depth")).toEqual([]);
  });
});
