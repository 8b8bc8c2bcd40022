// Anchor (b): a plain MiniSearch skills server: every SKILL.md read at start, a MiniSearch index
// over name and description, one search tool over stdio.
//
//   node bench/anchors/minisearch-server.mjs ROOT
import MiniSearch from "minisearch";
import { loadSkills, serveSearch } from "./load-skills.mjs";

const skills = loadSkills(process.argv[2]);
const index = new MiniSearch({
  idField: "path",
  fields: ["name", "description"],
  storeFields: ["name", "description", "path"],
  searchOptions: { boost: { name: 3, description: 2 }, prefix: true, fuzzy: 0.2 },
});
index.addAll(skills);
await serveSearch("minisearch-anchor", (query, limit) => index.search(query).slice(0, limit));
