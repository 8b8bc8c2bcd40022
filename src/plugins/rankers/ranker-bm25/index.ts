import { definePlugin } from "../../../kernel/config.js";
import { TOKENS } from "../../../tokens.js";
import { Bm25Ranker } from "./ranker.js";

/**
 * Provides the default ranker: field-weighted BM25 over analysed skill text, with prefix matching
 * and typo tolerance (docs/search.md). search_skills creates one itself when no ranker plugin is
 * configured, so listing this plugin is only needed to make the choice explicit.
 */
export default definePlugin({
  name: "ranker-bm25",
  provides: [TOKENS.Ranker],
  setup(ctx) {
    // Each consumer ranks with a ranker of its own, holding only what it indexed.
    ctx.provideScoped(TOKENS.Ranker, () => new Bm25Ranker());
  },
});

// The hybrid ranker fuses it with embeddings, and search_skills falls back to it.
export { Bm25Ranker } from "./ranker.js";
