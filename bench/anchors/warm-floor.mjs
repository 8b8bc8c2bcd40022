// The floor of a warm start that checks before it serves (issue 39): a plain server that keeps,
// in one JSON file, the mtime of every folder under the root and every SKILL.md's name,
// description and mtime. At start it reads that file and lstat's each folder and SKILL.md it
// names; when every mtime matches it serves the kept skills, and otherwise it reads every SKILL.md
// as the other anchors do (load-skills.mjs) and keeps them for the next start. That is the least a
// server can do to see a skill added, changed or removed anywhere under the root (skills nest in
// other skills' folders: a new one changes only its parent folder's mtime) without reading every
// SKILL.md. It then answers with a word match over name and description, one search tool over
// stdio like the other anchors.
//
//   node bench/anchors/warm-floor.mjs ROOT KEPT_FILE
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadSkills, serveSearch, SKIPPED } from "./load-skills.mjs";

const [root, keptFile] = process.argv.slice(2);

/** Every folder under the root (the root too) and every SKILL.md, with its mtime. */
function walk() {
  const folders = [];
  const files = [];
  const visit = (dir) => {
    folders.push([relative(root, dir), lstatSync(dir).mtimeMs]);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      if (entry.isDirectory()) visit(join(dir, entry.name));
      else if (entry.name === "SKILL.md") files.push([relative(root, dir), lstatSync(join(dir, entry.name)).mtimeMs]);
    }
  };
  visit(root);
  return { folders, files };
}

/** The kept skills when nothing changed since they were kept; undefined otherwise. */
function keptSkills() {
  let kept;
  try {
    kept = JSON.parse(readFileSync(keptFile, "utf8"));
  } catch {
    return undefined;
  }
  const unchanged = (path, mtimeMs) => {
    try {
      return lstatSync(join(root, path)).mtimeMs === mtimeMs;
    } catch {
      return false;
    }
  };
  for (const [path, mtimeMs] of kept.folders) if (!unchanged(path, mtimeMs)) return undefined;
  for (const [path, mtimeMs] of kept.files) if (!unchanged(join(path, "SKILL.md"), mtimeMs)) return undefined;
  return kept.skills;
}

let skills = keptSkills();
if (!skills) {
  const { folders, files } = walk();
  skills = loadSkills(root);
  writeFileSync(keptFile, JSON.stringify({ folders, files, skills }));
}
await serveSearch("warm-floor", (query, limit) => {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const score = (skill) =>
    words.filter((word) => `${skill.name} ${skill.description}`.toLowerCase().includes(word)).length;
  return skills
    .map((skill) => ({ skill, score: score(skill) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ skill }) => skill);
});
