// The first floor for `list`: a plain synchronous walk of a root that reads every SKILL.md into a
// string, nothing more (the folders skills-kernel walks: all but .git and node_modules). Prints
// how many it read, so a harness can check it saw the whole catalog.
//
//   node bench/anchors/read-all.mjs ROOT
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SKIPPED } from "./load-skills.mjs";

function readAll(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    if (entry.isDirectory()) count += readAll(join(dir, entry.name));
    else if (entry.name === "SKILL.md") {
      readFileSync(join(dir, entry.name), "utf8");
      count++;
    }
  }
  return count;
}

console.log(readAll(process.argv[2]));
