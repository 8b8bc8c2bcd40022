// Writes a catalog of `count` skills on disk for the scale benchmarks: every SKILL.md of
// ../shared/corpus first, as is, then copies of them under new names until there are `count`.
// A copy keeps the real file (frontmatter, body, size) with its `name:` rewritten, so reading and
// parsing cost what real skills cost. Layout: <root>/<bucket>/<skill>/SKILL.md, 100 skills a bucket,
// one folder per skill, named as the skill is (the layout of a registry mirror). The same count
// gives the same catalog.
//
//   node bench/scale/make-catalog.mjs --count 10000 --out /tmp/skills-10k
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// ../shared/corpus beside the repository; SKILLS_CORPUS names another place (a git worktree's).
export const CORPUS = process.env.SKILLS_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus", import.meta.url));
const SKILLS_PER_BUCKET = 100;

/** Every SKILL.md under `dir`, in path order. */
async function findSkillFiles(dir) {
  const found = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await findSkillFiles(path)));
    else if (entry.name === "SKILL.md") found.push(path);
  }
  return found;
}

function unquote(name) {
  return name.trim().replace(/^["']|["']$/g, "");
}

/** Makes the catalog unless `out` already holds one of this count (a marker file says so). */
export async function makeCatalog(count, out) {
  const marker = join(out, ".catalog-count");
  if (existsSync(marker) && (await readFile(marker, "utf8")) === String(count)) return out;
  if (!existsSync(CORPUS))
    throw new Error(`${CORPUS} is absent: the scale benchmarks copy its skills (set SKILLS_CORPUS)`);
  await rm(out, { recursive: true, force: true });
  const seeds = await Promise.all((await findSkillFiles(CORPUS)).map((path) => readFile(path, "utf8")));
  for (let i = 0; i < count; i++) {
    const seed = seeds[i % seeds.length];
    const round = Math.floor(i / seeds.length);
    // The corpus itself first, unchanged; each later round renames its copies.
    const text =
      round === 0 ? seed : seed.replace(/^name:\s*(.+)$/m, (_line, name) => `name: ${unquote(name)}-${round}`);
    const name = unquote(/^name:\s*(.+)$/m.exec(text)?.[1] ?? "");
    const bucket = join(out, `b${String(Math.floor(i / SKILLS_PER_BUCKET)).padStart(4, "0")}`);
    // A name that is no plain folder name, or one taken in this bucket, gets a numbered folder.
    let folder = join(bucket, /^[a-z0-9-]{1,64}$/.test(name) ? name : `s${String(i).padStart(6, "0")}`);
    if (existsSync(folder)) folder = join(bucket, `s${String(i).padStart(6, "0")}`);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "SKILL.md"), text);
  }
  await writeFile(marker, String(count));
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { count: { type: "string" }, out: { type: "string" } } });
  if (!values.count || !values.out) throw new Error("usage: make-catalog.mjs --count N --out DIR");
  console.log(await makeCatalog(Number(values.count), values.out));
}
