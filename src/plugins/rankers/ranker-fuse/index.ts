import { definePlugin } from "../../../kernel/config.js";
import { TOKENS } from "../../../tokens.js";
import { FuseRanker } from "./ranker.js";

/**
 * Provides the `fuse` ranker, the agent-skills MCP server's Fuse.js search, for compatibility.
 * search_skills uses whichever ranker the config provides; docs/search.md compares the two.
 */
export default definePlugin({
  name: "ranker-fuse",
  provides: [TOKENS.Ranker],
  setup(ctx) {
    // Each consumer ranks with a ranker of its own, holding only what it indexed.
    ctx.provideScoped(TOKENS.Ranker, () => new FuseRanker());
  },
});
