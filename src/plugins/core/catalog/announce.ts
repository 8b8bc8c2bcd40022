import type { McpServer } from "@modelcontextprotocol/server";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { WholeCatalog } from "../../../skills/catalog/catalog.js";

/**
 * Tell one server's client that what it lists changed with the skills: resources (each SKILL.md)
 * and prompts, for whichever of them the server offers. On a 2026-07-28 connection the SDK puts
 * these on the client's subscriptions/listen streams; on a 2025 one they go as they are.
 * Returns the function that stops following the catalog.
 */
export function announceSkillChanges(server: McpServer, catalog: WholeCatalog, logger: Logger): () => void {
  quietForAwaitedChanges(server, catalog);
  return catalog.onChange(() => {
    if (catalog.announcingAwaitedChange()) return;
    // Before the client's opening (initialize, or a 2026 request) there is nobody to tell: it
    // will list afresh, and MCP servers must not send notifications that early.
    if (!server.isConnected() || server.server.getNegotiatedProtocolVersion() === undefined) return;
    const offered = server.server.getCapabilities();
    const failed = (error: unknown) => logger.debug(`could not announce a list change: ${errorMessage(error)}`);
    if (offered.resources) Promise.resolve(server.sendResourceListChanged()).catch(failed);
    if (offered.prompts) Promise.resolve(server.sendPromptListChanged()).catch(failed);
  });
}

/** The notifications a change to the skills makes, from this plugin or from the SDK itself. */
const SKILL_LISTS_CHANGED = new Set(["notifications/resources/list_changed", "notifications/prompts/list_changed"]);

/**
 * What a source's first load brings (prompts the skill-prompts plugin registers, which the SDK
 * announces by itself) is no change to a client whose answers all waited for that load: this
 * server says nothing of it. A server built before the load (Deno answers `initialize` sooner
 * than a local folder loads) would otherwise announce list changes right after the opening.
 */
function quietForAwaitedChanges(server: McpServer, catalog: WholeCatalog): void {
  const notify = server.server.notification.bind(server.server);
  server.server.notification = (notification, options) =>
    SKILL_LISTS_CHANGED.has(notification.method) && catalog.announcingAwaitedChange()
      ? Promise.resolve()
      : notify(notification, options);
}
