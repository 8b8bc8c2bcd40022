// Anchor (a'), the second plain Fuse.js server, written independently of fuse-server.mjs to check
// it: Node's own recursive readdir lists the root, gray-matter (js-yaml) parses each SKILL.md's
// frontmatter, Fuse's default options over name and description, one search tool over stdio.
//
//   node bench/anchors/fuse-server-2.mjs ROOT
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import Fuse from "fuse.js";
import matter from "gray-matter";
import { serveSearch, SKIPPED } from "./load-skills.mjs";

const root = process.argv[2];
const skills = [];
for (const file of readdirSync(root, { recursive: true })) {
  if (!file.endsWith(`${sep}SKILL.md`) && file !== "SKILL.md") continue;
  if (file.split(sep).some((segment) => SKIPPED.has(segment))) continue;
  try {
    const { data } = matter(readFileSync(join(root, file), "utf8"));
    if (typeof data.name === "string" && typeof data.description === "string")
      skills.push({ name: data.name, description: data.description, path: dirname(file) });
  } catch {
    // An unparseable frontmatter: skipped.
  }
}
const fuse = new Fuse(skills, { keys: ["name", "description"], includeScore: true, ignoreLocation: true });
await serveSearch("fuse-anchor-2", (query, limit) => fuse.search(query, { limit }).map((result) => result.item));
