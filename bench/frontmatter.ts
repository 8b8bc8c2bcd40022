// The fast path for simple frontmatter (src/skills/skill-md/simple-frontmatter.ts) against the yaml package
// it stands in for: every frontmatter of ../shared/corpus parsed many times by each, interleaved
// round by round, CPU time per round. The "fast path" row is what parseSkillMd does: the fast
// path, and yaml for the frontmatter it leaves.
//
//   npm run bench:frontmatter [-- --rounds 15]       # SKILLS_CORPUS=DIR for a corpus elsewhere
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { extractFrontmatter, parseFrontmatter } from "../src/skills/skill-md/skill-md.js";
import { parseSimpleFrontmatter } from "../src/skills/skill-md/simple-frontmatter.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "15" } } });
const rounds = Number(values.rounds);
const CORPUS = process.env.SKILLS_CORPUS ?? fileURLToPath(new URL("../../shared/corpus", import.meta.url));

function skillFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory() || (entry.isSymbolicLink() && !entry.name.includes("."))) return skillFiles(path);
    return entry.name === "SKILL.md" ? [path] : [];
  });
}

const frontmatters: string[] = [];
for (const file of skillFiles(CORPUS)) {
  const block = extractFrontmatter(readFileSync(file, "utf8"), { maxFrontmatterBytes: 64 * 1024, truncated: false });
  if (!("code" in block)) frontmatters.push(block.yaml);
}
const simple = frontmatters.filter((yaml) => parseSimpleFrontmatter(yaml) !== undefined).length;

const candidates = [
  { name: "yaml 2.9.1 (parseFrontmatter)", parse: (yaml: string) => parseFrontmatter(yaml) },
  {
    name: "fast path, yaml for the rest",
    parse: (yaml: string) => parseSimpleFrontmatter(yaml) ?? parseFrontmatter(yaml),
  },
];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const samples = candidates.map(() => [] as number[]);
for (let round = 0; round < rounds + 1; round++) {
  for (const [index, candidate] of candidates.entries()) {
    const start = cpuMs();
    for (const yaml of frontmatters) candidate.parse(yaml);
    // The first round warms the JIT for both and is not counted.
    if (round > 0) samples[index]!.push(cpuMs() - start);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const base = median(samples[0]!);
console.log(
  `${frontmatters.length} corpus frontmatters (${simple} on the fast path), ${rounds} rounds, node ${process.version}\n`,
);
console.log("| parser | median CPU ms a round | µs a frontmatter | vs yaml |\n|---|---:|---:|---:|");
for (const [index, candidate] of candidates.entries()) {
  const ms = median(samples[index]!);
  console.log(
    `| ${candidate.name} | ${ms.toFixed(1)} | ${((ms * 1000) / frontmatters.length).toFixed(1)} | ${(ms / base).toFixed(2)}x |`,
  );
}
