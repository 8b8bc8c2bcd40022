import type { McpServer } from "@modelcontextprotocol/server";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";

type AnyHandler = (...args: unknown[]) => unknown;

/** The request methods whose answer depends on which prompts are registered. */
const PROMPT_METHODS = new Set(["prompts/list", "prompts/get"]);

/**
 * prompts/list answers once the catalog's first load is in (within answerWithin), as
 * resources/list does: the prompts that load registers are then in the answer, and no client
 * needs a list_changed for them (the catalog plugin sends none). Before prompts/list, prompts/get
 * and the completion of a prompt's argument, `beforePrompts` runs (the skills' prompts are
 * registered then, not with every server: most sessions never ask for a prompt). The SDK installs
 * its prompts/list and prompts/get handlers when the first prompt is registered, in
 * `registerFirst`: they are wrapped there. Returns false when they were installed before (another
 * plugin's prompt came first), so that nothing wraps them, or the SDK has no prompt completion
 * to wrap: the caller then registers at once.
 */
export function listPromptsAfterFirstLoad(
  server: McpServer,
  view: CatalogView,
  registerFirst: () => void,
  beforePrompts: () => void,
): boolean {
  const protocol = server.server;
  const install = protocol.setRequestHandler as unknown as AnyHandler;
  const wrapped = new Set<unknown>();
  const wrapping = (method: unknown, ...rest: unknown[]) => {
    const handler = rest.at(-1) as AnyHandler;
    if (typeof method === "string" && PROMPT_METHODS.has(method)) wrapped.add(method);
    const answer =
      method === "prompts/list"
        ? async (...args: unknown[]) => {
            await view.ready();
            beforePrompts();
            return handler(...args);
          }
        : method === "prompts/get"
          ? (...args: unknown[]) => {
              beforePrompts();
              return handler(...args);
            }
          : handler;
    return install.call(protocol, method, ...rest.slice(0, -1), answer);
  };
  protocol.setRequestHandler = wrapping as unknown as typeof protocol.setRequestHandler;
  try {
    registerFirst();
  } finally {
    // The class's own method again.
    Reflect.deleteProperty(protocol, "setRequestHandler");
  }
  if (wrapped.size < PROMPT_METHODS.size) return false;
  // completion/complete may be installed before (the skill:// template's completion): the SDK's
  // handler asks this method of the server for a prompt's argument.
  const completing = server as unknown as { handlePromptCompletion?: AnyHandler };
  const complete = completing.handlePromptCompletion;
  // An SDK without that method: register at once rather than complete from no prompts.
  if (typeof complete !== "function") return false;
  completing.handlePromptCompletion = (...args: unknown[]) => {
    beforePrompts();
    return complete.apply(server, args);
  };
  return true;
}
