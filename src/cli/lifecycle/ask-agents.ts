import { AGENTS, type AgentRow, type Scope } from "../../lifecycle/agents.js";
import { UserError } from "../../kernel/errors.js";
import type { CliIo, CliOutput } from "../io.js";

/** Whether `add` may ask: a person at a terminal on both ends, and not CI. */
export function canAsk(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true && !io.env.CI;
}

/**
 * Asks which agents to install for, with `chosen` (the detected ones, or claude-code) already
 * chosen; typing filters the list. The prompt draws on stderr so stdout stays the command's output.
 */
export async function askAgents(scope: Scope, chosen: readonly AgentRow[], stderr: CliOutput): Promise<AgentRow[]> {
  const { autocompleteMultiselect, isCancel } = await import("@clack/prompts");
  const offered = scope.global ? AGENTS.filter((agent) => agent.global !== undefined) : AGENTS;
  const answer = await autocompleteMultiselect({
    message: "Install for which agents? (detected ones are chosen; type to filter, Tab to choose)",
    options: offered.map((agent) => ({
      value: agent.id,
      label: agent.name,
      hint: scope.global ? agent.global : agent.project,
    })),
    initialValues: chosen.map((agent) => agent.id),
    required: true,
    output: stderr,
  });
  if (isCancel(answer)) throw new UserError("cancelled: nothing was added", 1);
  return offered.filter((agent) => answer.includes(agent.id));
}
