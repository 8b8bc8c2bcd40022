import { AGENTS, DEFAULT_AGENT, SHARED_FOLDER } from "./agents.js";

/** docs/agents.md, rendered from the agents table; a test keeps the file equal to this. */
export function renderAgentsDoc(): string {
  const code = (path: string) => `\`${path}\``;
  const rows = AGENTS.map(
    (agent) =>
      `| ${code(agent.id)} | ${agent.name} | ${agent.project.map(code).join(", ")} | ${code(`~/${agent.global}`)} | ${agent.detect.map(code).join(", ") || "-"} | <${agent.docs}> |`,
  );
  return [
    "# Agents",
    "",
    "<!-- Rendered from src/lifecycle/agents.ts by `npx tsx scripts/render-agents-doc.ts`; test/lifecycle/agents.test.ts checks it. -->",
    "",
    "`add` and `install` take `--agent ID` (repeatable) or `--all-agents`. With neither, they install for the agents",
    `detected in the project (an install folder or marker of theirs exists), or for \`${DEFAULT_AGENT}\` when none is.`,
    "The first project folder of an agent is where its skills are installed; `--global` uses the user folder instead",
    "(`~/.config/…` follows `$XDG_CONFIG_HOME`).",
    "",
    `Each skill is stored once, in ${code(SHARED_FOLDER)} (\`~/.agents/skills\` with \`--global\`), and every other agent's`,
    "folder gets a symbolic link to it; `--copy` gives each agent its own copy, and a copy is made wherever a link",
    "cannot be. Agents that read the shared folder themselves see the stored copy.",
    "",
    "| id | agent | project folders | user folder | detected by | documented at |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
