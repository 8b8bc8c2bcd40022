import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { type SarifLevel, type SarifResult, type SarifRule, sarifLog } from "../../lib/sarif.js";
import { SKILL_FILES } from "../../skills/files/folder-rules.js";
import { VERSION } from "../../version.js";
import type { DoctorReport } from "./report.js";

/*
 * doctor's findings as SARIF 2.1.0, for code scanning in CI, through the one SARIF writer: a rule
 * per kind of finding, one result per finding at the SKILL.md (the line of its description) or
 * the agent's folder it is about.
 */

const HELP_URI = "https://github.com/skills-kernel/skills-kernel/blob/main/docs/tools.md#doctor";

/** A doctor rule: what it reports (`summary`) and what to do about it (`help`). */
function rule(id: string, level: SarifLevel, summary: string, help: string): SarifRule {
  return {
    id,
    level,
    summary,
    description: `${summary}. ${help}`,
    help: { text: help, markdown: `${help} See [doctor](${HELP_URI}).` },
    helpUri: HELP_URI,
  };
}

const RULES: readonly SarifRule[] = [
  rule(
    "skill-collision",
    "error",
    "Another skill comes first on most of this skill's own phrases",
    "An agent asking for what this skill says it does is given another skill. Make the two descriptions say what tells them apart, or merge them.",
  ),
  rule(
    "listing-overflow",
    "error",
    "An agent's native skill listing is over its host's budget",
    "The host drops descriptions or skills past its listing budget without a word. Keep the few skills the agent must always list in its folder and serve the rest through skills-kernel, so search finds them.",
  ),
  rule(
    "skill-hard-to-find",
    "note",
    "The skill comes first on fewer than half of its own phrases",
    'Put the words people ask with in its description, first, in a "Use when …" phrase.',
  ),
  rule(
    "description-near-duplicate",
    "warning",
    "Two descriptions say the same",
    "An agent cannot tell the two skills apart: say what each is for that the other is not.",
  ),
  rule(
    "no-trigger",
    "warning",
    "No phrase says when to use the skill",
    'Agents match a request against when a skill applies: add "Use when …" to the description, or a when_to_use field.',
  ),
  rule("too-short", "warning", "The description is too short", "Say what the skill does and when to use it."),
  rule(
    "too-long",
    "warning",
    "The description is longer than listings keep",
    "Hosts cut long descriptions in their listing: keep it under 1,024 characters, with what matters first.",
  ),
  rule(
    "trigger-late",
    "note",
    "The description says when to use the skill only late",
    "Listings that cut descriptions short lose it: say when to use the skill in the first sentence.",
  ),
  rule(
    "name-clash",
    "warning",
    "Another source serves a skill of the same name",
    "Only one of them answers to the name; the other answers to its qualified id only. Rename one.",
  ),
];

/** The SARIF log of a doctor report; paths relative to `root` (the repository a scan uploads from). */
export function doctorSarif(report: DoctorReport, root: string): object {
  const results: SarifResult[] = [];
  for (const skill of report.skills) {
    const at = placeOf(skill.location, root);
    if (skill.collision) {
      const { id, phrases } = skill.collision;
      results.push({
        ...at,
        ruleId: "skill-collision",
        identity: `${skill.id}\n${id}`,
        message: `${id} comes first on ${phrases.length} of the ${skill.phrases.length} phrases of ${skill.id}: ${phrases.map((p) => `"${p}"`).join(", ")}`,
      });
    } else if (skill.findability !== null && skill.findability < 50) {
      results.push({
        ...at,
        ruleId: "skill-hard-to-find",
        identity: skill.id,
        message: `${skill.id} scores ${skill.findability} of 100 on its own phrases`,
      });
    }
    for (const problem of skill.problems)
      results.push({ ...at, ruleId: problem.code, identity: skill.id, message: `${skill.id}: ${problem.message}` });
  }
  for (const pair of report.nearDuplicates)
    results.push({
      ...placeOf(pair.location, root),
      ruleId: "description-near-duplicate",
      identity: `${pair.id}\n${pair.other}`,
      message: `${pair.id} and ${pair.other} say the same (similarity ${pair.similarity})`,
    });
  for (const listing of report.listings) {
    if (!listing.overflow || !listing.budget) continue;
    results.push({
      file: fileOf(resolve(root, listing.folders[0]!), root),
      ruleId: "listing-overflow",
      identity: listing.agent,
      message: `${listing.agentName}: ${listing.skills} skills take ${listing.chars} characters of its ${listing.budget.chars}: ${listing.overflow.outcome}`,
    });
  }
  return sarifLog({ name: "skills-kernel doctor", version: VERSION, informationUri: HELP_URI, rules: RULES }, results);
}

/** Where a finding about a skill points: its SKILL.md at the line of `description:`, else its folder. */
function placeOf(location: string, root: string): { file: string; line?: number } {
  const folder = resolve(root, location);
  const skillMd = existsSync(folder)
    ? SKILL_FILES.map((name) => join(folder, name)).find((path) => isRegularFile(path))
    : undefined;
  if (!skillMd) return { file: fileOf(folder, root) };
  return { file: fileOf(skillMd, root), line: descriptionLine(skillMd) };
}

/** An absolute path as the writer takes it: `/`-separated below `root`, else absolute. */
function fileOf(absolute: string, root: string): string {
  const inside = relative(root, absolute);
  if (inside.startsWith("..") || isAbsolute(inside)) return absolute;
  return inside === "" ? "." : inside.split(sep).join("/");
}

/** Only a regular file is read: a FIFO named SKILL.md would hold the sync read for good. */
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The line of the frontmatter's `description:` (1-based), else 1: where the finding points. */
function descriptionLine(file: string): number {
  const lines = readFileSync(file, "utf8").split(/\r?\n/, 200);
  const at = lines.findIndex((line) => /^description\s*:/.test(line));
  return at === -1 ? 1 : at + 1;
}
