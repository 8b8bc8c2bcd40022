// Anchor (a): a skills server in the style of the agent-skills MCP server: every SKILL.md read at
// start, a Fuse.js index over name and description, one search tool over stdio.
//
//   node bench/anchors/fuse-server.mjs ROOT
import Fuse from "fuse.js";
import { loadSkills, serveSearch } from "./load-skills.mjs";

const skills = loadSkills(process.argv[2]);
const fuse = new Fuse(skills, {
  keys: [
    { name: "name", weight: 0.6 },
    { name: "description", weight: 0.4 },
  ],
  threshold: 0.4,
  ignoreLocation: true,
  includeScore: true,
});
await serveSearch("fuse-anchor", (query, limit) => fuse.search(query, { limit }).map((result) => result.item));
