import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { validateSkillDocument } from "../skills/skill-md/skill-spec.js";
import { agentFolder, type AgentRow, type Scope } from "./agents.js";
import { HOST_QUIRKS, SPEC_SOURCE } from "./host-quirks.js";
import { agentSkillPath } from "./place.js";
import { readRegularFile } from "../lib/regular-file.js";

/** Why one agent will not load one installed skill, and what to do about it. */
export interface HostProblem {
  readonly skill: string;
  readonly agent: string;
  readonly problem: string;
  readonly fix: string;
  readonly source?: string;
}

const isLink = (path: string) =>
  lstat(path).then(
    (stats) => stats.isSymbolicLink(),
    () => false,
  );

/**
 * What each agent will actually load of an installed skill, from the folder it reads: the skill is
 * there with a readable SKILL.md, through no link the host is known to ignore, and with the
 * frontmatter every host requires (a name matching its folder, a description within bounds).
 */
export async function checkSkillForAgents(
  folder: string,
  agents: readonly AgentRow[],
  scope: Scope,
): Promise<HostProblem[]> {
  const problems: HostProblem[] = [];
  for (const agent of agents) {
    const say = (problem: string, fix: string, source?: string) =>
      problems.push({ skill: folder, agent: agent.id, problem, fix, ...(source && { source }) });
    const path = agentSkillPath(agent, scope, folder);
    const skillsFolder = agentFolder(agent, scope);
    const quirks = HOST_QUIRKS.filter((quirk) => quirk.agents.includes(agent.id));
    const folderQuirk = quirks.find((quirk) => quirk.kind === "linked-skills-folder");
    if (folderQuirk && (await isLink(skillsFolder))) {
      say(
        `${skillsFolder} is a link, and ${agent.name} does not read a linked skills folder`,
        `replace the link with the folder it points to`,
        folderQuirk.source,
      );
      continue;
    }
    const skillQuirk = quirks.find((quirk) => quirk.kind === "linked-skill");
    if (skillQuirk && (await isLink(path))) {
      say(
        `${path} is a link, and ${agent.name} does not load linked skill folders`,
        `skills-kernel add … --agent ${agent.id} --copy --force gives it a copy`,
        skillQuirk.source,
      );
      continue;
    }
    let text: string;
    try {
      text = await readRegularFile(join(path, "SKILL.md"), "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      say(`${join(path, "SKILL.md")} cannot be read (${code})`, `skills-kernel restore puts it back`);
      continue;
    }
    const rejected = validateSkillDocument(text, folder).errors.filter(
      (issue) => issue.field === "name" || issue.field === "description",
    );
    for (const issue of rejected) {
      const fix =
        issue.field === "name"
          ? `make the name in ${join(path, "SKILL.md")} and its folder's name (${folder}) the same`
          : "shorten or fix the description";
      say(`${issue.field}: ${issue.message}`, fix, SPEC_SOURCE);
    }
  }
  return problems;
}

/** One line for a problem, as `installed --check` and add, update and restore print it. */
export function describeProblem(problem: HostProblem): string {
  return `${problem.agent} will not load ${problem.skill}: ${problem.problem}; fix: ${problem.fix}${problem.source ? ` (${problem.source})` : ""}`;
}
