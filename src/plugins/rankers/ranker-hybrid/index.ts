import { LRUCache } from "lru-cache";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { PluginError } from "../../../kernel/errors.js";
import { TOKENS } from "../../../tokens.js";
import { Bm25Ranker } from "../ranker-bm25/index.js";
import { OpenAiEmbeddings } from "./embeddings.js";
import { HybridRanker } from "./ranker.js";

export const hybridOptionsSchema = z.strictObject({
  /** The embeddings API's base URL: `POST {url}/embeddings` is called (OpenAI, Ollama, llama.cpp, vLLM). */
  url: z.url({ protocol: /^https?$/ }),
  /** The model the endpoint should use, e.g. "nomic-embed-text". */
  model: z.string().min(1),
  /** The environment variable holding the API key, if the endpoint wants one (never the key itself). */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional(),
  /** One embeddings request may take this long before the search answers by words alone. */
  timeoutMs: z.number().int().min(100).default(10_000),
  /** Candidates each side brings to the fusion. */
  candidates: z.number().int().min(1).max(1000).default(50),
  /** Reciprocal rank fusion's constant. */
  rrfK: z.number().min(1).default(60),
  /** The vector side's weight in the fusion, the lexical side's being 1. */
  vectorWeight: z.number().min(0).max(100).default(1),
  /** Texts per request while the catalog is embedded in the background. */
  batchSize: z.number().int().min(1).max(2048).default(64),
  /** How long a search waits for the catalog's background embedding before it goes on with the vectors there are. */
  warmupWaitMs: z.number().int().min(0).default(1000),
  /** Vectors kept in memory (skills and recent queries); more skills than this are found by words only. */
  cacheEntries: z.number().int().min(1).default(50_000),
});

/**
 * An optional ranker: the default BM25 ranking fused with vector similarity from an embeddings
 * endpoint (docs/search.md). Off unless a config lists it; search_skills then ranks with it.
 */
export default definePlugin({
  name: "ranker-hybrid",
  provides: [TOKENS.Ranker],
  consumes: [TOKENS.Cache],
  options: hybridOptionsSchema,
  needsTrust: {
    options: {
      url: "skill texts and queries are sent there",
      apiKeyEnv: "that environment variable's value is sent to url",
    },
  },
  setup(ctx, options) {
    let apiKey: string | undefined;
    if (options.apiKeyEnv !== undefined) {
      apiKey = process.env[options.apiKeyEnv];
      if (!apiKey)
        throw new PluginError(ctx.name, `option apiKeyEnv: the environment variable ${options.apiKeyEnv} is not set`, {
          exitCode: 2,
        });
    }
    const embeddings = new OpenAiEmbeddings({
      url: options.url,
      model: options.model,
      apiKey,
      timeoutMs: options.timeoutMs,
    });
    const ranker = new HybridRanker(
      new Bm25Ranker(),
      embeddings,
      // Bounded by a size of one an entry rather than `max`, which makes lru-cache allocate its
      // lists for every entry up front (as in src/cache/memory-backend.ts).
      new LRUCache<string, Float32Array>({ maxSize: options.cacheEntries, sizeCalculation: () => 1 }),
      {
        candidates: options.candidates,
        rrfK: options.rrfK,
        vectorWeight: options.vectorWeight,
        batchSize: options.batchSize,
        warmupWaitMs: options.warmupWaitMs,
      },
      ctx.logger,
      ctx.resolveOptional(TOKENS.Cache),
    );
    // Each consumer ranks with a copy of its own, holding only what it indexed; the copies share
    // the embeddings client and the vectors already fetched, and close with this one.
    ctx.provideScoped(TOKENS.Ranker, () => ranker.emptyCopy());
    ctx.logger.debug(`embeddings from ${embeddings.description}`);
    return { stop: () => ranker.close() };
  },
});

// The semantic ranker embeds with a local model through the same interface, and keeps its skills
// beside the lexical ranker's as this one does.
export { dot, type EmbeddingsProvider } from "./embeddings.js";
export { FusedRanker } from "./fused-ranker.js";
