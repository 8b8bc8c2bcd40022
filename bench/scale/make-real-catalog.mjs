// Writes a catalog of `count` real-shaped skills for the scale benchmarks: whole skill folders of
// ../shared/corpus (SKILL.md, references/, scripts/, assets/...) in their repositories' own
// layouts (skills/<name>/, skills/(category)/<name>/, plugins/<p>/skills/<name>/, .curated/...),
// nested skills included. Round 0 is the corpus as it is; each later round is one more copy of it
// under r<round>/, every skill folder renamed <folder>-<round> and its `name:` <name>-<round>, so
// names stay unique. SKILL.md files are written anew; other files are hard links to the corpus
// (the same directory entries and bytes, no disk space). The same count gives the same catalog.
//
//   node bench/scale/make-real-catalog.mjs --count 10000 --out /tmp/skills-real-10k
import { existsSync } from "node:fs";
import { link, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// ../shared/corpus beside the repository; SKILLS_CORPUS names another place (a git worktree's).
export const CORPUS = process.env.SKILLS_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus", import.meta.url));

/** Every folder under `dir` holding a SKILL.md, relative to the corpus, in path order. */
async function findSkillFolders(dir, found = []) {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  if (entries.some((entry) => entry.isFile() && entry.name === "SKILL.md")) found.push(relative(CORPUS, dir));
  for (const entry of entries) if (entry.isDirectory()) await findSkillFolders(join(dir, entry.name), found);
  return found;
}

/** A skill folder's own files (relative to it), leaving out sub-folders that are skills of their own. */
async function ownFiles(dir, skills, prefix = "") {
  const files = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : join(prefix, entry.name);
    if (entry.isDirectory()) {
      if (!skills.has(relative(CORPUS, join(dir, rel)))) files.push(...(await ownFiles(dir, skills, rel)));
    } else if (entry.isFile()) files.push(rel);
  }
  return files;
}

const unquote = (name) => name.trim().replace(/^["']|["']$/g, "");

/** The path of a corpus skill folder in round `round`: each segment that is a skill folder renamed. */
function placed(folder, round, skills) {
  if (round === 0) return folder;
  const segments = folder.split(sep);
  const renamed = segments.map((segment, index) =>
    skills.has(segments.slice(0, index + 1).join(sep)) ? `${segment}-${round}` : segment,
  );
  return join(`r${String(round).padStart(3, "0")}`, ...renamed);
}

/** Makes the catalog unless `out` already holds one of this count (a marker file says so). */
export async function makeRealCatalog(count, out) {
  const marker = join(out, ".catalog-count");
  if (existsSync(marker) && (await readFile(marker, "utf8")) === `real ${count}`) return out;
  if (!existsSync(CORPUS))
    throw new Error(`${CORPUS} is absent: the scale benchmarks copy its skills (set SKILLS_CORPUS)`);
  await rm(out, { recursive: true, force: true });
  const folders = await findSkillFolders(CORPUS);
  const skills = new Set(folders);
  const seeds = await Promise.all(
    folders.map(async (folder) => ({
      folder,
      text: await readFile(join(CORPUS, folder, "SKILL.md"), "utf8"),
      files: await ownFiles(join(CORPUS, folder), skills),
    })),
  );
  for (let i = 0; i < count; i++) {
    const { folder, text, files } = seeds[i % seeds.length];
    const round = Math.floor(i / seeds.length);
    const target = join(out, placed(folder, round, skills));
    await mkdir(target, { recursive: true });
    await writeFile(
      join(target, "SKILL.md"),
      round === 0 ? text : text.replace(/^name:\s*(.+)$/m, (_line, name) => `name: ${unquote(name)}-${round}`),
    );
    for (const file of files) {
      if (file === "SKILL.md") continue;
      await mkdir(dirname(join(target, file)), { recursive: true });
      await link(join(CORPUS, folder, file), join(target, file));
    }
  }
  await writeFile(marker, `real ${count}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { count: { type: "string" }, out: { type: "string" } } });
  if (!values.count || !values.out) throw new Error("usage: make-real-catalog.mjs --count N --out DIR");
  console.log(await makeRealCatalog(Number(values.count), values.out));
}
