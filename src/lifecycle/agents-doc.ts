import { AGENTS, DEFAULT_AGENT, isUniversal, SHARED_FOLDER } from "./agents.js";

/** docs/agents.md, rendered from the agents table; a test keeps the file equal to this. */
export function renderAgentsDoc(): string {
  const code = (path: string) => `\`${path}\``;
  const rows = AGENTS.map((agent) => {
    const own = !isUniversal(agent) && agent.project.startsWith(".") ? [agent.project.split("/")[0]!] : [];
    const detect = [...own, ...(agent.detect ?? [])];
    const user =
      agent.global === undefined
        ? "project only"
        : isUniversal(agent)
          ? `${code(`~/${SHARED_FOLDER}`)} (reads ${code(agent.global)})`
          : code(agent.global);
    return `| ${code(agent.id)} | ${agent.name} | ${code(agent.project)} | ${user} | ${detect.map(code).join(", ") || "-"} | <${agent.docs}> |`;
  });
  return [
    "# Agents",
    "",
    "<!-- Rendered from src/lifecycle/agents-table.ts by `npx tsx scripts/render-agents-doc.ts`; test/lifecycle/agents.test.ts checks it. -->",
    "",
    `skills-kernel installs into the ${AGENTS.length} agents \`npx skills\` 1.7.4 knows, by the same ids and into the same`,
    "folders, so a lock written by one tool means the same to the other (test/e2e/lifecycle-agents.test.ts checks each",
    "agent against the real `npx skills`). `kiro` and `agents`, this project's former ids, still name `kiro-cli` and",
    "`universal`.",
    "",
    "`add` and `install` take `--agent ID` (repeatable) or `--all-agents`. With neither, `add` in a terminal asks which",
    "agents, with the detected ones chosen; elsewhere it installs for the agents detected in the project (their",
    `dot-folder or a marker exists), or for \`${DEFAULT_AGENT}\` when none is. \`--global\` installs into the user folder`,
    "instead (`~` is your home folder; `$VAR` is that environment variable when set, else the usual folder:",
    "`$XDG_CONFIG_HOME` is `~/.config`, `$CLAUDE_CONFIG_DIR` `~/.claude`).",
    "",
    `Each skill is stored once, in ${code(SHARED_FOLDER)} (\`~/.agents/skills\` with \`--global\`), and every other agent's`,
    "folder gets a symbolic link to it; `--copy` gives each agent its own copy, and a copy is made wherever a link",
    'cannot be. Agents that read the shared folder themselves ("universal" agents) see the stored copy.',
    "",
    "| id | agent | project folder | user folder | detected by | documented at |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
