// The second floor for `skills-kernel list`, written independently of list-floor.mjs to check it:
// Node's own recursive readdir lists the root, gray-matter (js-yaml) parses each SKILL.md, and
// every skill with a string name and description is printed, sorted by name, one a line.
//
//   node bench/anchors/list-floor-2.mjs ROOT
import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import matter from "gray-matter";

const root = process.argv[2];
const listed = [];
for (const file of readdirSync(root, { recursive: true })) {
  if (file !== "SKILL.md" && !file.endsWith(`${sep}SKILL.md`)) continue;
  if (file.split(sep).some((segment) => segment === ".git" || segment === "node_modules")) continue;
  let data;
  try {
    ({ data } = matter(readFileSync(join(root, file), "utf8")));
  } catch {
    continue; // An unparseable frontmatter is skipped, as every server does.
  }
  if (typeof data.name === "string" && typeof data.description === "string")
    listed.push(`${data.name}\t${data.description.replace(/\s+/g, " ")}`);
}
process.stdout.write(`${listed.sort().join("\n")}\n`);
