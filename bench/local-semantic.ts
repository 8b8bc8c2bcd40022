import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger } from "../src/kernel/logger.js";
import { LocalEmbeddings, SemanticRanker, SkillVectors } from "../src/plugins/rankers/ranker-semantic/index.js";
import { DEFAULT_SEMANTIC, type SemanticSettings } from "../src/plugins/rankers/ranker-semantic/ranker.js";
import { createSavedIndexes } from "../src/plugins/tools/search-skills/index.js";
import { cacheRoot } from "../src/remote/cache-dir.js";

/**
 * The semantic ranker as bench/semantic.ts and scripts/eval-search.ts measure it: the default
 * model from test/semantic-model (which `npm test` installs), its vectors kept in the user's cache
 * folder so that only the first run embeds. `rankers()` makes rankers sharing one model.
 */
export function localSemantic(settings: Partial<SemanticSettings> = {}): {
  vectors: SkillVectors;
  ranker: () => SemanticRanker;
} {
  const vectors = new SkillVectors(
    () =>
      LocalEmbeddings.load({
        dtype: "q4",
        dimensions: 384,
        baseDir: fileURLToPath(new URL("../test/semantic-model/", import.meta.url)),
      }),
    { batchSize: 16, dimensions: 384 },
    createLogger("warn"),
    createSavedIndexes(join(cacheRoot(undefined, process.cwd()), "vectors"), 256 * 1024 * 1024),
    undefined,
  );
  return { vectors, ranker: () => new SemanticRanker(vectors, { ...DEFAULT_SEMANTIC, ...settings }) };
}
