// The audit over ../shared/corpus against its floor: reading the same files through the same
// reader (the fs source's, as `skills-kernel audit` reads them) without running any rule.
// Rounds alternate floor and audit in one process, so both see the same page cache and load;
// each row is the median wall time of its rounds, with the load average at the start and end.
//
//   npm run bench:audit [-- --rounds 7]       # SKILLS_CORPUS=DIR for a corpus elsewhere
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { findSkills } from "../src/cli/skill-folder.js";
import { auditSkill, MAX_AUDITED_BYTES, MAX_AUDITED_FILES } from "../src/skills/audit/audit-skill.js";
import type { SkillReader } from "../src/skills/files/skill-reader.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "7" } } });
const rounds = Number(values.rounds);
const CORPUS = process.env.SKILLS_CORPUS ?? fileURLToPath(new URL("../../shared/corpus", import.meta.url));

/** What the audit reads of a skill, and nothing more: its floor. */
async function readOnly(reader: SkillReader): Promise<number> {
  let bytes = (await reader.readDocument(MAX_AUDITED_BYTES)).bytes.length;
  const listing = await reader.listFiles(MAX_AUDITED_FILES);
  for (const file of listing.files) bytes += (await reader.readFile(file.path, MAX_AUDITED_BYTES)).bytes.length;
  return bytes;
}

const skills = (await findSkills(CORPUS, { maxDepth: 8, maxDirectories: 100_000 }))!;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times = { floor: [] as number[], audit: [] as number[] };
let findings = 0;
let bytes = 0;
const loadBefore = loadavg()[0]!;
for (let round = 0; round < rounds; round++) {
  for (const kind of round % 2 === 0 ? (["floor", "audit"] as const) : (["audit", "floor"] as const)) {
    const started = performance.now();
    if (kind === "floor") {
      bytes = 0;
      for (const { reader } of skills) bytes += await readOnly(reader);
    } else {
      findings = 0;
      for (const { reader } of skills) findings += (await auditSkill(reader)).length;
    }
    times[kind].push(performance.now() - started);
  }
}
const floor = median(times.floor);
const audit = median(times.audit);
console.log(
  `${skills.length} skills, ${(bytes / 1024 / 1024).toFixed(1)} MiB read, ${findings} findings; ${rounds} interleaved rounds`,
);
console.log(`floor (read only): median ${Math.round(floor)} ms  [${times.floor.map(Math.round).join(", ")}]`);
console.log(`audit:             median ${Math.round(audit)} ms  [${times.audit.map(Math.round).join(", ")}]`);
console.log(
  `audit / floor: ${(audit / floor).toFixed(2)}x; load average ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
);
