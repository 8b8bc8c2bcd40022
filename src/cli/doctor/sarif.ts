import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { SKILL_FILES } from "../../skills/files/folder-rules.js";
import { VERSION } from "../../version.js";
import type { DoctorReport } from "./report.js";

/*
 * doctor's findings as SARIF 2.1.0, for code scanning in CI: one run, a rule per kind of finding
 * with its help, and one result per finding at the SKILL.md (the line of its description) or the
 * agent's folder it is about, with a fingerprint that stays as long as the finding does.
 */

type Level = "error" | "warning" | "note";

const HELP_URI = "https://github.com/skills-kernel/skills-kernel/blob/main/docs/tools.md#doctor";

const RULES: readonly { id: string; level: Level; short: string; help: string }[] = [
  {
    id: "skill-collision",
    level: "error",
    short: "Another skill comes first on most of this skill's own phrases",
    help: "An agent asking for what this skill says it does is given another skill. Make the two descriptions say what tells them apart, or merge them.",
  },
  {
    id: "listing-overflow",
    level: "error",
    short: "An agent's native skill listing is over its host's budget",
    help: "The host drops descriptions or skills past its listing budget without a word. Keep the few skills the agent must always list in its folder and serve the rest through skills-kernel, so search finds them.",
  },
  {
    id: "skill-hard-to-find",
    level: "note",
    short: "The skill comes first on fewer than half of its own phrases",
    help: 'Put the words people ask with in its description, first, in a "Use when …" phrase.',
  },
  {
    id: "description-near-duplicate",
    level: "warning",
    short: "Two descriptions say the same",
    help: "An agent cannot tell the two skills apart: say what each is for that the other is not.",
  },
  {
    id: "no-trigger",
    level: "warning",
    short: "No phrase says when to use the skill",
    help: 'Agents match a request against when a skill applies: add "Use when …" to the description, or a when_to_use field.',
  },
  {
    id: "too-short",
    level: "warning",
    short: "The description is too short",
    help: "Say what the skill does and when to use it.",
  },
  {
    id: "too-long",
    level: "warning",
    short: "The description is longer than listings keep",
    help: "Hosts cut long descriptions in their listing: keep it under 1,024 characters, with what matters first.",
  },
  {
    id: "trigger-late",
    level: "note",
    short: "The description says when to use the skill only late",
    help: "Listings that cut descriptions short lose it: say when to use the skill in the first sentence.",
  },
  {
    id: "name-clash",
    level: "warning",
    short: "Another source serves a skill of the same name",
    help: "Only one of them answers to the name; the other answers to its qualified id only. Rename one.",
  },
];

interface Result {
  readonly rule: string;
  readonly message: string;
  /** A file or folder, absolute or relative to the working folder. */
  readonly path: string;
  readonly line?: number;
  /** What identifies this finding across runs, beside its rule and path. */
  readonly identity: string;
}

/** The SARIF log of a doctor report; paths relative to `root` (the repository a scan uploads from). */
export function doctorSarif(report: DoctorReport, root: string): object {
  const results: Result[] = [];
  for (const skill of report.skills) {
    const file = skillFile(skill.location, root);
    const at = { path: file ?? skill.location, ...(file && { line: descriptionLine(resolve(root, file)) }) };
    if (skill.collision) {
      const { id, phrases } = skill.collision;
      results.push({
        ...at,
        rule: "skill-collision",
        identity: `${skill.id}\n${id}`,
        message: `${id} comes first on ${phrases.length} of the ${skill.phrases.length} phrases of ${skill.id}: ${phrases.map((p) => `"${p}"`).join(", ")}`,
      });
    } else if (skill.findability !== null && skill.findability < 50) {
      results.push({
        ...at,
        rule: "skill-hard-to-find",
        identity: skill.id,
        message: `${skill.id} scores ${skill.findability} of 100 on its own phrases`,
      });
    }
    for (const problem of skill.problems)
      results.push({ ...at, rule: problem.code, identity: skill.id, message: `${skill.id}: ${problem.message}` });
  }
  for (const pair of report.nearDuplicates) {
    const file = skillFile(pair.location, root);
    results.push({
      path: file ?? pair.location,
      ...(file && { line: descriptionLine(resolve(root, file)) }),
      rule: "description-near-duplicate",
      identity: `${pair.id}\n${pair.other}`,
      message: `${pair.id} and ${pair.other} say the same (similarity ${pair.similarity})`,
    });
  }
  for (const listing of report.listings) {
    if (!listing.overflow || !listing.budget) continue;
    results.push({
      path: listing.folders[0]!,
      rule: "listing-overflow",
      identity: listing.agent,
      message: `${listing.agentName}: ${listing.skills} skills take ${listing.chars} characters of its ${listing.budget.chars}: ${listing.overflow.outcome}`,
    });
  }
  const index = new Map(RULES.map((rule, i) => [rule.id, i]));
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "skills-kernel doctor",
            version: VERSION,
            informationUri: HELP_URI,
            rules: RULES.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.short },
              help: { text: rule.help },
              helpUri: HELP_URI,
              defaultConfiguration: { level: rule.level },
            })),
          },
        },
        results: results.map((result) => ({
          ruleId: result.rule,
          ruleIndex: index.get(result.rule)!,
          level: RULES[index.get(result.rule)!]!.level,
          message: { text: result.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifactOf(result.path, root),
                ...(result.line !== undefined && { region: { startLine: result.line } }),
              },
            },
          ],
          partialFingerprints: {
            "doctorFinding/v1": createHash("sha256")
              .update(`${result.rule}\n${result.path}\n${result.identity}`)
              .digest("hex")
              .slice(0, 32),
          },
        })),
      },
    ],
  };
}

/** The SKILL.md in a local skill's folder (relative to `root` when inside it); undefined for a remote skill. */
function skillFile(location: string, root: string): string | undefined {
  const folder = resolve(root, location);
  if (!existsSync(folder)) return undefined;
  const file = SKILL_FILES.map((name) => join(folder, name)).find((path) => existsSync(path));
  if (!file) return undefined;
  const inside = relative(root, file);
  return inside.startsWith("..") || isAbsolute(inside) ? file : inside;
}

/** The line of the frontmatter's `description:` (1-based), else 1: where the finding points. */
function descriptionLine(file: string): number {
  const lines = readFileSync(file, "utf8").split(/\r?\n/, 200);
  const at = lines.findIndex((line) => /^description\s*:/.test(line));
  return at === -1 ? 1 : at + 1;
}

/**
 * A path as SARIF's artifactLocation: relative to `root` as a URI reference (each segment
 * percent-encoded, `/` between), with `uriBaseId` so code scanning resolves it against the
 * checkout; a path outside `root` as an absolute file:// URI.
 */
function artifactOf(path: string, root: string): { uri: string; uriBaseId?: string } {
  const absolute = resolve(root, path);
  const inside = relative(root, absolute);
  if (inside.startsWith("..") || isAbsolute(inside)) return { uri: pathToFileURL(absolute).href };
  const segments = (inside === "" ? "." : inside).split(sep).map(encodeURIComponent);
  return { uri: segments.join("/"), uriBaseId: "%SRCROOT%" };
}
