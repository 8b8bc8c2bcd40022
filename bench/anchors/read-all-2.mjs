// The second floor for `list`, written independently of read-all.mjs to check it: Node's own
// recursive readdir lists the root, then every SKILL.md is read into a string. Prints how many.
//
//   node bench/anchors/read-all-2.mjs ROOT
import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";

let count = 0;
for (const file of readdirSync(process.argv[2], { recursive: true })) {
  if (!file.endsWith(`${sep}SKILL.md`) && file !== "SKILL.md") continue;
  if (file.split(sep).some((segment) => segment === ".git" || segment === "node_modules")) continue;
  readFileSync(join(process.argv[2], file), "utf8");
  count++;
}
console.log(count);
