import type { McpServer } from "@modelcontextprotocol/server";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { SkillCatalog } from "../../../skills/catalog.js";

/**
 * Tell one server's client that what it lists changed with the skills: resources (each SKILL.md)
 * and prompts, for whichever of them the server offers. On a 2026-07-28 connection the SDK puts
 * these on the client's subscriptions/listen streams; on a 2025 one they go as they are.
 * Returns the function that stops following the catalog.
 */
export function announceSkillChanges(server: McpServer, catalog: SkillCatalog, logger: Logger): () => void {
  return catalog.onChange(() => {
    // Before the client's opening (initialize, or a 2026 request) there is nobody to tell: it
    // will list afresh, and MCP servers must not send notifications that early.
    if (!server.isConnected() || server.server.getNegotiatedProtocolVersion() === undefined) return;
    const offered = server.server.getCapabilities();
    const failed = (error: unknown) => logger.debug(`could not announce a list change: ${errorMessage(error)}`);
    if (offered.resources) Promise.resolve(server.sendResourceListChanged()).catch(failed);
    if (offered.prompts) Promise.resolve(server.sendPromptListChanged()).catch(failed);
  });
}
