// What a per-team view of the catalog costs: 10,000 synthetic skills in two sources, one seen by
// the platform group only. After each reload the whole catalog's identity is rebuilt once (as
// before views), and each view's on its first use; later uses of a view are a map lookup.
//
//   node --import tsx bench/visibility.ts [--runs 15] [--synthetic 10000]
import { parseArgs } from "node:util";
import { createLogger } from "../src/kernel/logger.js";
import { callerView, WholeCatalog } from "../src/skills/catalog/catalog.js";
import type { CatalogSource, SourceSkill } from "../src/skills/types.js";
import type { Identity } from "../src/skills/catalog/visibility.js";
import { loadSeedSkills, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "15" }, synthetic: { type: "string", default: "10000" } },
});
const runs = Number(values.runs);
const seed = await loadSeedSkills();
const all = syntheticCatalog(seed.skills, Number(values.synthetic));

function source(name: string, skills: readonly SourceSkill[]): CatalogSource {
  const none = () => Promise.reject(new Error("not read here"));
  return {
    name,
    description: name,
    load: async () => ({ skills, diagnostics: [] }),
    readDocument: none,
    listFiles: none,
    readFile: none,
  };
}
const asSource = (part: typeof all) =>
  part.map(({ name, description, path, frontmatter, excerpt }, rank) => ({
    name,
    description,
    path,
    frontmatter,
    excerpt,
    rank,
  }));
const catalog = new WholeCatalog(createLogger("error"));
catalog.addSource(source("team", asSource(all.filter((_, i) => i % 2 === 0))), {
  visibleTo: { claims: { groups: ["platform"] } },
});
catalog.addSource(source("company", asSource(all.filter((_, i) => i % 2 === 1))));
const outsider: Identity = { subject: "bob", scopes: [], claims: { groups: ["sales"] } };

const time = (work: () => unknown) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const reload: number[] = [];
const firstView: number[] = [];
const laterView: number[] = [];
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  await catalog.refresh();
  reload.push(performance.now() - started);
  firstView.push(time(() => callerView(catalog, outsider).list()));
  laterView.push(time(() => callerView(catalog, outsider).list()));
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(`${all.length} skills (seed: ${seed.origin}), ${runs} runs, medians:`);
console.log(`  reload (load + identity of the whole catalog): ${fmt(median(reload))}`);
console.log(
  `  an outsider's view, first use after the reload: ${fmt(median(firstView))} (${callerView(catalog, outsider).list().length} skills)`,
);
console.log(`  the same view again: ${fmt(median(laterView))}`);
