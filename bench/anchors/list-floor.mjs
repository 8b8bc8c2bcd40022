// The first floor for `skills-kernel list` that lists what it reads: the walk and the frontmatter
// parse of the first Fuse server (load-skills.mjs: a synchronous walk, the yaml package), then
// every name and description sorted by name, one skill a line. What a user would write to list
// a folder of skills; the read-only floors (read-all*.mjs) bound it from below.
//
//   node bench/anchors/list-floor.mjs ROOT
import { loadSkills } from "./load-skills.mjs";

const skills = loadSkills(process.argv[2]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
process.stdout.write(skills.map(({ name, description }) => `${name}\t${description.replace(/\s+/g, " ")}\n`).join(""));
