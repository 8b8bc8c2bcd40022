import type { McpServer } from "@modelcontextprotocol/server";
import { definePlugin } from "../../kernel/config.js";
import { SkillCatalog } from "../../skills/catalog.js";
import { KERNEL_TOKENS } from "../../kernel/tokens.js";
import { SKILL_TOKENS } from "../../skills/tokens.js";
import { announceSkillChanges } from "./announce.js";

/**
 * The skill catalog: every source's skills with identity resolved. Loaded at start, once every
 * source is set up; a served kernel also follows the sources' watchers, and tells each client
 * when what it lists changed with the skills.
 */
export default definePlugin({
  name: "catalog",
  provides: [SKILL_TOKENS.SkillCatalog, KERNEL_TOKENS.ListingTtl],
  consumes: [{ token: SKILL_TOKENS.SkillSource, optional: true }],
  setup(ctx) {
    const catalog = new SkillCatalog(ctx.logger);
    ctx.provide(SKILL_TOKENS.SkillCatalog, catalog);
    ctx.provide(KERNEL_TOKENS.ListingTtl, () => catalog.listingTtlMs());
    // Named: the kernel tells contributions apart by name, and an anonymous function's is "".
    const skillChanges = (server: McpServer) => announceSkillChanges(server, catalog, ctx.logger);
    ctx.extendServer(skillChanges);
    let stopWatching: (() => void) | undefined;
    return {
      start(started) {
        for (const source of started.resolveAll(SKILL_TOKENS.SkillSource)) catalog.addSource(source);
        void catalog.refresh(undefined, started.signal);
      },
      serve(serving) {
        stopWatching ??= catalog.watch(serving.signal);
      },
      stop() {
        stopWatching?.();
      },
    };
  },
});
