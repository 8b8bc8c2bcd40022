// Which real skill loses to which synthetic distractor on the development set, and what the
// distractor is made of (docs/search.md, "What the distractors do"): every query whose right skill
// is first over the corpus but not over the corpus with 5,000 distractors, with the winner, the
// three real skills it recombines (read from its description: one sentence of each, in order), and
// whether it carries the right skill's own text. Ends with the counts by style and by kind.
//
//   npx tsx scripts/distractor-losses.ts [--distractors 5000]
import { parseArgs } from "node:util";
import { CORPUS, loadSeedSkills, syntheticCatalog } from "../bench/synthetic-catalog.js";
import { Bm25Ranker } from "../src/plugins/rankers/ranker-bm25/ranker.js";
import { generateDevQueries } from "./dev-queries.js";

const { values } = parseArgs({ options: { distractors: { type: "string", default: "5000" } } });
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).filter((s) => s.trim().length > 0);

const seed = await loadSeedSkills();
const distractors = syntheticCatalog(seed.skills, Number(values.distractors));
// A description sentence, to the real skills whose description holds it.
const owners = new Map<string, string[]>();
for (const skill of seed.skills) {
  for (const sentence of sentences(skill.description))
    owners.set(sentence, [...(owners.get(sentence) ?? []), skill.name]);
}
const corpus = new Bm25Ranker();
corpus.build(seed.skills);
const mixed = new Bm25Ranker();
mixed.build([...seed.skills, ...distractors]);

const byStyle = new Map<string, number>();
const byKind = new Map<string, number>();
const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
for (const q of generateDevQueries(seed.skills, CORPUS)) {
  const [right] = corpus.search(q.query, { limit: 1 });
  if (!right || !q.accepted.has(right.skill.name)) continue;
  const ranked = mixed.search(q.query, { limit: 5 });
  const winner = ranked[0]!;
  if (q.accepted.has(winner.skill.name)) continue;
  count(byStyle, q.style);
  const rank = ranked.findIndex((r) => q.accepted.has(r.skill.name)) + 1;
  let kind = "a real skill wins";
  let made = "";
  if (winner.skill.source === "synthetic") {
    const parts = sentences(winner.skill.description).map((s) => owners.get(s) ?? ["?"]);
    kind = parts.some((names) => names.includes(right.skill.name))
      ? "made from the right skill"
      : "none of the right skill's text";
    made = ` from ${parts.map((names) => names.join("|")).join(" / ")}`;
  }
  count(byKind, kind);
  console.log(
    `[${q.style}] "${q.query}": ${right.skill.name} ${right.score} on the corpus, now ${rank > 0 ? `rank ${rank}` : "past 5"}; ${winner.skill.name} ${winner.score}${made} (${kind})`,
  );
}
console.log("\nby style:", Object.fromEntries(byStyle), "\nby kind:", Object.fromEntries(byKind));
