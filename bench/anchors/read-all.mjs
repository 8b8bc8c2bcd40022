// The floor for `list`: walks a root and reads every SKILL.md into a string, nothing more.
// Prints how many it read, so a harness can check it saw the whole catalog.
//
//   node bench/anchors/read-all.mjs ROOT
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

async function readAll(dir) {
  const entries = await readdir(dir, { withFileTypes: true });
  const counts = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return readAll(path);
      if (entry.name !== "SKILL.md") return 0;
      await readFile(path, "utf8");
      return 1;
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

console.log(await readAll(process.argv[2]));
