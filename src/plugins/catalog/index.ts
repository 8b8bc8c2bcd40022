import { definePlugin } from "../../kernel/config.js";
import { SkillCatalog } from "../../skills/catalog.js";
import { SKILL_TOKENS } from "../../skills/tokens.js";

/** How long a server's first answers wait for a source's first load (a hanging catalog retries for about 45 s). */
const FIRST_ANSWER_WAIT_MS = 5_000;

/**
 * The skill catalog: every source's skills with identity resolved. Loaded at start, once every
 * source is set up; a served kernel also follows the sources' watchers.
 */
export default definePlugin({
  name: "catalog",
  provides: [SKILL_TOKENS.SkillCatalog],
  consumes: [{ token: SKILL_TOKENS.SkillSource, optional: true }],
  setup(ctx) {
    const catalog = new SkillCatalog(ctx.logger);
    ctx.provide(SKILL_TOKENS.SkillCatalog, catalog);
    let stopWatching: (() => void) | undefined;
    return {
      start(started) {
        for (const source of started.resolveAll(SKILL_TOKENS.SkillSource)) catalog.addSource(source);
        void catalog.refresh(undefined, started.signal);
      },
      serve(serving) {
        catalog.answerWithin(FIRST_ANSWER_WAIT_MS);
        stopWatching ??= catalog.watch(serving.signal);
      },
      stop() {
        stopWatching?.();
      },
    };
  },
});
