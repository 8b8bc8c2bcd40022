import { z } from "zod";
import type { CatalogChange, SkillCatalog } from "../../kernel/catalog.js";
import { definePlugin } from "../../kernel/config.js";
import { errorMessage, ToolInputError } from "../../kernel/errors.js";
import { TOKENS } from "../../kernel/tokens.js";
import type { Ranker } from "../../kernel/types.js";
import { MATCH_QUALITIES, toAnswer } from "./answer.js";

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 50;

/** One kernel's search: the plugin object is shared by every kernel in the process, its state is not. */
interface SearchState {
  /** Chosen at start: a ranker plugin's, else the default. */
  ranker: Ranker | undefined;
  /** Built from the whole catalog on first need; kept current from catalog changes after that. */
  indexed: boolean;
  readonly stopListening: () => void;
}

const states = new WeakMap<SkillCatalog, SearchState>();

/** Keep the index in step with the catalog without rebuilding it: removals first, then additions. */
function apply(ranker: Ranker, { added, removed, updated }: CatalogChange): void {
  const gone = [...removed, ...updated].map((skill) => skill.qualifiedId);
  if (gone.length > 0) ranker.remove(gone);
  if (added.length + updated.length > 0) ranker.add([...added, ...updated]);
}

/**
 * The index is built when first needed, not at boot: one-shot commands (`skills-kernel list`,
 * `read`) never pay for it, and a served kernel warms it in the background (the serve hook).
 */
function ensureIndexed(state: SearchState, catalog: SkillCatalog): Ranker {
  if (!state.ranker) throw new Error("search_skills was called before its plugin started");
  if (!state.indexed) {
    state.ranker.build(catalog.list());
    state.indexed = true;
  }
  return state.ranker;
}

/**
 * The `search_skills` tool: step 1 of 3, the skills that fit a task, ranked, metadata only. It
 * ranks with the ranker a plugin provides (`ranker-fuse`, `ranker-bm25`, or a third-party one),
 * else with its own BM25 ranker.
 */
export default definePlugin({
  name: "search-skills",
  setup(ctx) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    const state: SearchState = {
      ranker: undefined,
      indexed: false,
      // Until the index is built, the catalog itself is the truth: the build reads it whole.
      stopListening: catalog.onChange((change) => {
        if (state.ranker && state.indexed) apply(state.ranker, change);
      }),
    };
    states.set(catalog, state);

    ctx.addTool({
      name: "search_skills",
      title: "Search skills",
      description:
        "Step 1 of 3: search (metadata only) → read_skill (SKILL.md and its file list) → fetch_skill_files (only " +
        "listed files). Finds the Agent Skills that fit a task: describe the task in a few words, or give a " +
        "skill's name. Returns the best matches first, each with its id, name, the start of its description, " +
        "source, score (0-100) and match_quality (exact, strong, partial or weak), and `total`, how many skills " +
        "matched. Next: call read_skill with the id of the best match; if nothing is strong, search again in " +
        "other words.",
      inputSchema: {
        query: z.string().describe('what the task is about, e.g. "extract tables from PDF files", or a skill name'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_LIMIT)
          .optional()
          .describe(`how many results to return, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
        source: z.string().optional().describe("only skills of this source (the part before ':' in a qualified id)"),
      },
      outputSchema: {
        query: z.string(),
        total: z.number().int().describe("how many skills matched, before the limit"),
        results: z.array(
          z.object({
            id: z.string().describe("what read_skill takes"),
            name: z.string(),
            description: z.string(),
            source: z.string(),
            score: z.number().int().min(0).max(100),
            match_quality: z.enum(MATCH_QUALITIES),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ query, limit = DEFAULT_LIMIT, source }) {
        if (!query.trim()) {
          throw new ToolInputError('query is blank: say what the skill should do, e.g. "write a commit message"');
        }
        await catalog.ready();
        if (source !== undefined && !catalog.sources.some((s) => s.name === source)) {
          const names = catalog.sources.map((s) => s.name);
          throw new ToolInputError(
            `no source named ${JSON.stringify(source.slice(0, 100))}; ` +
              (names.length > 0 ? `sources: ${names.join(", ")}` : "this server has no skill sources"),
          );
        }
        // Every match is ranked so `total` can count them; the answer describes only `limit`.
        const ranked = ensureIndexed(state, catalog).search(query, { limit: Math.max(1, catalog.list().length), source });
        const answer = toAnswer(query, ranked, limit);
        return {
          content: [{ type: "text", text: JSON.stringify(answer) }],
          structuredContent: { ...answer },
        };
      },
    });
  },
  async start(ctx) {
    const state = states.get(ctx.resolve(TOKENS.SkillCatalog))!;
    let ranker: Ranker;
    try {
      ranker = ctx.resolve(TOKENS.Ranker);
    } catch {
      // No ranker plugin in the config: the default needs no options, so search works with just
      // this plugin. Imported here, not at the top, so a config with another ranker never loads it.
      ranker = new (await import("../ranker-bm25/ranker.js")).Bm25Ranker();
    }
    ctx.logger.debug(`ranking with ${ranker.name}`);
    state.ranker = ranker;
  },
  serve(ctx) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    const state = states.get(catalog)!;
    // After the first load, and after whatever the transport is busy with right now: an agent's
    // first search then finds the index built, and the handshake never waits for it.
    void catalog.ready().then(() =>
      setTimeout(() => {
        if (ctx.signal.aborted) return;
        const started = performance.now();
        try {
          ensureIndexed(state, catalog);
        } catch (error) {
          // A third-party ranker that throws costs the warm-up only: the first search retries.
          ctx.logger.error(`building the search index failed: ${errorMessage(error)}`);
          return;
        }
        ctx.logger.debug(`indexed ${catalog.list().length} skills in ${Math.round(performance.now() - started)} ms`);
      }).unref(),
    );
  },
  stop(ctx) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    states.get(catalog)?.stopListening();
    states.delete(catalog);
  },
});
