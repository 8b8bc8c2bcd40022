// The audit's false positives on real skills: every skill under a corpus (../shared/corpus by
// default) audited as `skills-kernel audit` reads it; prints the share flagged high, the skills
// by rule and severity, and each high finding, so a reviewer can judge them.
//
//   npx tsx scripts/audit-corpus.ts [DIR]
import { fileURLToPath } from "node:url";
import { findSkills } from "../src/cli/skill-folder.js";
import { auditSkill } from "../src/skills/audit/audit-skill.js";
import { findingPlace } from "../src/skills/audit/render.js";

const corpus = process.argv[2] ?? fileURLToPath(new URL("../../shared/corpus", import.meta.url));
const found = await findSkills(corpus, { maxDepth: 8, maxDirectories: 100_000 });
if (found === undefined || found.length === 0) {
  process.stderr.write(`audit-corpus: ${corpus} holds no skill (the shared corpus is absent from user clones)\n`);
  process.exit(2);
}
const byRule = new Map<string, Set<string>>();
const high: string[] = [];
for (const { folder, reader } of found) {
  const findings = await auditSkill(reader);
  for (const finding of findings) {
    const key = `${finding.rule} (${finding.severity})`;
    byRule.set(key, (byRule.get(key) ?? new Set()).add(folder.path));
    if (finding.severity === "high")
      high.push(`  ${folder.path}: ${finding.rule} at ${findingPlace(finding)}: ${finding.message}`);
  }
}
const flagged = new Set(high.map((line) => line.slice(2, line.indexOf(": "))));
const share = (n: number) => `${((100 * n) / found.length).toFixed(1)}%`;
console.log(`${found.length} skills audited; flagged high: ${flagged.size} (${share(flagged.size)})`);
for (const [rule, skills] of [...byRule].sort(([a], [b]) => (a < b ? -1 : 1)))
  console.log(`  ${rule}: ${skills.size} (${share(skills.size)})`);
if (high.length > 0) console.log(`high findings:\n${high.join("\n")}`);
