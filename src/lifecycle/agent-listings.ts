import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { compare } from "../lib/compare.js";
import { readHead } from "../skills/files/read-head.js";
import { SKILL_FILES } from "../skills/files/folder-rules.js";
import { offeredToModel, whenToUse } from "../skills/skill-md/claude-fields.js";
import { parseSkillMd } from "../skills/skill-md/skill-md.js";
import { AGENTS, agentFolder, type AgentRow } from "./agents.js";
import { LISTING_BUDGETS, UNDOCUMENTED_CUTS, type ListingBudget } from "./listing-budgets.js";

/** What a host lists of one skill it loads from its folders. */
export interface ListedSkill {
  readonly name: string;
  readonly description: string;
  readonly whenToUse?: string;
  /** Its SKILL.md. */
  readonly location: string;
}

/** One agent's native skill listing, measured against its host's documented budget. */
export interface AgentListing {
  readonly agent: string;
  readonly agentName: string;
  /** The folders it reads that hold skills. */
  readonly folders: readonly string[];
  readonly skills: number;
  /** Characters its listing of them takes, written as the host writes it (as `line` when unknown). */
  readonly chars: number;
  /** The host's documented budget; absent when none is documented. */
  readonly budget?: Pick<ListingBudget, "chars" | "basis" | "sources">;
  /** Where a host cuts without a documented budget, what shows it. */
  readonly undocumentedCut?: string;
  /** Over budget: what the host does with these skills. */
  readonly overflow?: Overflow;
}

export interface Overflow {
  /** In a sentence: what the host does. */
  readonly outcome: string;
  /** How many skills lose their description (cut short or dropped). */
  readonly descriptionsLost: number;
  /** Skills left out of the listing altogether, by name, where the host's order says which. */
  readonly skillsDropped: readonly string[];
  /** How many skills are left out where which ones depends on what only the host knows. */
  readonly skillsDroppedCount: number;
}

/** A SKILL.md's frontmatter sits at its top: this much is read of each. */
const HEAD_BYTES = 64 * 1024;

/**
 * The skills directly in `folder` (a host loads `<folder>/<name>/SKILL.md`), as the host lists
 * them: those the model is offered, by their name and description. A folder that is not there
 * holds none; a skill whose frontmatter does not parse is no entry of any host's listing.
 */
export async function skillsIn(folder: string): Promise<ListedSkill[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const listed: ListedSkill[] = [];
  for (const entry of entries.sort((a, b) => compare(a.name, b.name))) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    for (const file of SKILL_FILES) {
      const location = join(folder, entry.name, file);
      const head = await readHead(location, HEAD_BYTES).catch(() => undefined);
      if (!head) continue;
      const parsed = parseSkillMd(head.bytes.toString("utf8"), {
        folderName: basename(join(folder, entry.name)),
        maxFrontmatterBytes: HEAD_BYTES,
        truncated: head.truncated,
      });
      if (parsed.ok && offeredToModel(parsed.skill)) {
        const when = whenToUse(parsed.skill);
        listed.push({
          name: parsed.skill.name,
          description: parsed.skill.description,
          ...(when && { whenToUse: when }),
          location,
        });
      }
      break;
    }
  }
  return listed;
}

/**
 * Every agent of the table whose folders (its project's under `root`, and the user's under
 * `home`) hold skills, with its listing measured against its host's budget. The skills of one
 * name count once, the project's first.
 */
export async function agentListings(
  root: string,
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AgentListing[]> {
  const byFolder = new Map<string, Promise<ListedSkill[]>>();
  const read = (folder: string) => {
    let skills = byFolder.get(folder);
    if (!skills) byFolder.set(folder, (skills = skillsIn(folder)));
    return skills;
  };
  const listings: AgentListing[] = [];
  for (const agent of AGENTS) {
    const folders = [
      ...new Set([
        agentFolder(agent, { global: false, root, home }),
        ...(agent.global === undefined ? [] : [agentFolder(agent, { global: true, root, home })]),
      ]),
    ];
    const holding: string[] = [];
    const skills = new Map<string, ListedSkill>();
    for (const folder of folders) {
      const found = await read(folder);
      if (found.length > 0) holding.push(folder);
      for (const skill of found) if (!skills.has(skill.name)) skills.set(skill.name, skill);
    }
    if (skills.size === 0) continue;
    listings.push(measure(agent, holding, [...skills.values()], env));
  }
  return listings;
}

function measure(agent: AgentRow, folders: string[], skills: ListedSkill[], env: NodeJS.ProcessEnv): AgentListing {
  const budget = LISTING_BUDGETS.find((candidate) => candidate.agents.includes(agent.id));
  const base = { agent: agent.id, agentName: agent.name, folders, skills: skills.length };
  if (!budget) {
    const cut = UNDOCUMENTED_CUTS[agent.id];
    return { ...base, chars: total(skills, "line", undefined), ...(cut && { undocumentedCut: cut }) };
  }
  const fromEnv = budget.charsFromEnv ? Number(env[budget.charsFromEnv]) : Number.NaN;
  const chars = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : budget.chars;
  const basis = chars === budget.chars ? budget.basis : `${budget.charsFromEnv} is set to ${chars}`;
  const measured = { ...base, budget: { chars, basis, sources: budget.sources } };
  const listed = budget.overflow === "names-then-last-alphabetically" ? byName(skills) : skills;
  const full = total(listed.slice(0, budget.maxSkills), budget.entry, budget.descriptionChars);
  const overflow = overflowOf(budget, listed, chars);
  return { ...measured, chars: full, ...(overflow && { overflow }) };
}

/** As OpenClaw sorts them: by name, in English collation. */
function byName(skills: readonly ListedSkill[]): ListedSkill[] {
  return [...skills].sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/** What the host lists as a skill's description: with `when_to_use` after it, cut to its limit. */
function descriptionOf(skill: ListedSkill, limit: number | undefined): string {
  const text = skill.whenToUse ? `${skill.description} ${skill.whenToUse}` : skill.description;
  return limit === undefined ? text : text.slice(0, limit);
}

/** Characters one entry takes, with `description` characters of description. */
function entryChars(skill: ListedSkill, entry: ListingBudget["entry"], description: number): number {
  switch (entry) {
    case "line":
      return `- ${skill.name}`.length + (description > 0 ? 2 + description : 0) + 1;
    case "line-with-path":
      return `- ${skill.name}: `.length + description + ` (file: ${skill.location})`.length + 1;
    case "xml":
      return (description > 0 ? 97 : 65) + skill.name.length + description + skill.location.length;
  }
}

function total(skills: readonly ListedSkill[], entry: ListingBudget["entry"], limit: number | undefined): number {
  return skills.reduce((sum, skill) => sum + entryChars(skill, entry, descriptionOf(skill, limit).length), 0);
}

function overflowOf(budget: ListingBudget, skills: readonly ListedSkill[], chars: number): Overflow | undefined {
  const lengths = skills.map((skill) => descriptionOf(skill, budget.descriptionChars).length);
  const size = (cap: number, count = skills.length) =>
    skills
      .slice(0, count)
      .reduce((sum, skill, i) => sum + entryChars(skill, budget.entry, Math.min(cap, lengths[i]!)), 0);
  // The first `count` entries without descriptions, for every count: how many names fit.
  const namesUpTo = [0];
  for (const skill of skills) namesUpTo.push(namesUpTo.at(-1)! + entryChars(skill, budget.entry, 0));
  const namesFitting = (count: number) => {
    let kept = count;
    while (kept > 0 && namesUpTo[kept]! > chars) kept--;
    return kept;
  };
  const none = { descriptionsLost: 0, skillsDropped: [] as string[], skillsDroppedCount: 0 };
  switch (budget.overflow) {
    case "least-used-descriptions": {
      if (size(Number.POSITIVE_INFINITY) <= chars) return undefined;
      // The fewest descriptions that must go: the longest first. Which go is the host's choice.
      const order = lengths.map((length, i) => [length, i] as const).sort((a, b) => b[0] - a[0]);
      let used = size(Number.POSITIVE_INFINITY);
      let lost = 0;
      for (const [, i] of order) {
        if (used <= chars) break;
        used -= entryChars(skills[i]!, budget.entry, lengths[i]!) - entryChars(skills[i]!, budget.entry, 0);
        lost++;
      }
      const namesAlone = used > chars ? `; even their names take ${used.toLocaleString("en-US")} characters` : "";
      return {
        ...none,
        descriptionsLost: lost,
        outcome: `at least ${lost} of ${skills.length} skills are listed by name alone, without the description that says when to use them (the host drops the least-invoked skills' descriptions first)${namesAlone}`,
      };
    }
    case "cut-descriptions-then-skills": {
      if (size(Number.POSITIVE_INFINITY) <= chars) return undefined;
      if (size(0) <= chars) {
        // The longest cut that fits: every description is cut to at most this many characters.
        let low = 0;
        let high = Math.max(...lengths);
        while (low < high) {
          const middle = Math.ceil((low + high) / 2);
          if (size(middle) <= chars) low = middle;
          else high = middle - 1;
        }
        const lost = lengths.filter((length) => length > low).length;
        return {
          ...none,
          descriptionsLost: lost,
          outcome: `${lost} of ${skills.length} descriptions are cut to ${low} characters`,
        };
      }
      const kept = namesFitting(skills.length);
      return {
        ...none,
        descriptionsLost: skills.length,
        skillsDroppedCount: skills.length - kept,
        outcome: `every description is dropped, and ${skills.length - kept} of ${skills.length} skills are left out (the lower-priority folders' first)`,
      };
    }
    case "names-then-last-alphabetically": {
      const max = budget.maxSkills ?? skills.length;
      const listed = Math.min(max, skills.length);
      const pastMax = skills.slice(listed).map((skill) => skill.name);
      if (size(Number.POSITIVE_INFINITY, listed) <= chars) {
        if (pastMax.length === 0) return undefined;
        return {
          ...none,
          skillsDropped: pastMax,
          skillsDroppedCount: pastMax.length,
          outcome: `it lists the first ${max} by name, and leaves out ${pastMax.length}`,
        };
      }
      const kept = namesFitting(listed);
      const dropped = [...skills.slice(kept, listed).map((skill) => skill.name), ...pastMax];
      return {
        ...none,
        descriptionsLost: kept,
        skillsDropped: dropped,
        skillsDroppedCount: dropped.length,
        outcome:
          dropped.length === 0
            ? `every description is dropped: the ${kept} skills are listed by name and location alone`
            : `every description is dropped, and the last ${dropped.length} by name are left out`,
      };
    }
  }
}
