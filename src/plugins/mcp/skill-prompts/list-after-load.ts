import type { McpServer } from "@modelcontextprotocol/server";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";

type AnyHandler = (...args: unknown[]) => unknown;

/**
 * prompts/list answers once the catalog's first load is in (within answerWithin), as
 * resources/list does: the prompts that load registers are then in the answer, and no client
 * needs a list_changed for them (the catalog plugin sends none). The SDK installs its prompts/list
 * handler when the first prompt is registered, in `registerFirst`: it is wrapped there.
 */
export function listPromptsAfterFirstLoad(server: McpServer, view: CatalogView, registerFirst: () => void): void {
  const protocol = server.server;
  const install = protocol.setRequestHandler as unknown as AnyHandler;
  const wrapping = (method: unknown, ...rest: unknown[]) => {
    const handler = rest.at(-1) as AnyHandler;
    const answer =
      method === "prompts/list"
        ? async (...args: unknown[]) => {
            await view.ready();
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
}
