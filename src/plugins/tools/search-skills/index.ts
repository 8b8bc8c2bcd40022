import { z } from "zod";
import type { CatalogChange, CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { definePlugin } from "../../../kernel/config.js";
import { errorMessage, ToolInputError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { MetricsRecorder } from "../../../kernel/request-observer.js";
import { TOKENS } from "../../../tokens.js";
import type { Ranker } from "../../../skills/types.js";
import { searchRemoteSources } from "../../../remote/remote-search.js";
import { MATCH_QUALITIES, toAnswer } from "./answer.js";
import { offeredToModel } from "../../../skills/skill-md/claude-fields.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import { join } from "node:path";
import { createSavedIndexes, savedIndexKey, type SavedIndexes } from "./saved-index.js";

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 50;
const MiB = 1024 * 1024;

export const searchSkillsOptionsSchema = z.strictObject({
  /** Where built search indexes are kept for the next start: relative to the config's folder, `~` to home. Default: the user's cache folder. */
  cacheDir: z.string().min(1).optional(),
  /** False: keep no search index on disk (every start builds it). */
  diskCache: z.boolean().default(true),
  /** The most bytes the saved indexes take together; past it, the oldest written go. */
  maxDiskCacheBytes: z
    .number()
    .int()
    .min(1)
    .default(256 * MiB),
});

/** Keep the index in step with the catalog without rebuilding it: removals first, then additions. */
function apply(ranker: Ranker, { added, removed, updated }: CatalogChange): void {
  const gone = [...removed, ...updated].map((skill) => skill.qualifiedId);
  if (gone.length > 0) ranker.remove(gone);
  if (added.length + updated.length > 0) ranker.add([...added, ...updated]);
}

/**
 * One kernel's search index. It is built when first needed, not at boot: one-shot commands
 * (`skills-kernel list`, `read`) never pay for it, and a served kernel warms it in the background.
 * Until then the catalog itself is the truth, since the build reads it whole.
 */
class SearchIndex {
  #ranker: Ranker | undefined;
  #built = false;
  /** Builds the index in the background again once a change has dropped it (set while serving). */
  #rewarm: (() => void) | undefined;

  /** Counts changes applied to the ranker: a save deferred past one would save another index. */
  #changes = 0;
  #saving: Promise<void> | undefined;

  constructor(
    private readonly catalog: CatalogView,
    private readonly logger: Logger,
    private readonly metrics: MetricsRecorder | undefined,
    /** Where the whole catalog's index is kept between runs; a caller's view keeps none. */
    private readonly saved?: SavedIndexes,
  ) {}

  /** Chosen at start: a ranker plugin's, else the default. */
  use(ranker: Ranker): void {
    this.#ranker = ranker;
  }

  /**
   * A change at least as large as the index (the first load, after a search or the warm-up built
   * an index of the skills loaded within the answer wait) is indexed afresh: one build is faster
   * than adding skill by skill, and its postings are sized to fit.
   */
  follow(change: CatalogChange): void {
    this.#changes++;
    if (!this.#ranker || !this.#built) return;
    // The catalog has applied the change; the index holds what it held before.
    const indexed = this.catalog.list().length - change.added.length + change.removed.length;
    if (change.added.length + change.updated.length >= Math.max(1, indexed)) {
      this.#built = false;
      this.#rewarm?.();
      return;
    }
    apply(this.#ranker, change);
  }

  /** Builds the index afresh at the next search (a view's, after a change to its sources). */
  drop(): void {
    this.#changes++;
    this.#built = false;
  }

  /** Builds the index in the background now, and again whenever a change drops it. */
  warm(signal: AbortSignal, logger: Logger): void {
    this.#rewarm = () =>
      setTimeout(() => {
        if (signal.aborted) return;
        try {
          this.ranker();
        } catch (error) {
          // A third-party ranker that throws costs the warm-up only: the first search retries.
          logger.error(`building the search index failed: ${errorMessage(error)}`);
        }
      }).unref();
    this.#rewarm();
  }

  ranker(): Ranker {
    if (!this.#ranker) throw new Error("search_skills was called before its plugin started");
    if (!this.#built) {
      const started = performance.now();
      const skills = this.catalog.list();
      const ranker = this.#ranker;
      // An empty catalog's index is built at once: nothing worth a file.
      const key =
        skills.length > 0 && this.saved && ranker.saveIndex && ranker.loadIndex
          ? savedIndexKey(ranker.name, skills)
          : undefined;
      const saved = key === undefined ? undefined : this.saved!.load(key);
      const loaded = saved !== undefined && this.#load(ranker, skills, saved);
      if (!loaded) ranker.build(skills);
      this.#built = true;
      const elapsed = performance.now() - started;
      // Logged here, whoever asked first: the warm-up or an agent's search that came before it.
      this.logger.debug(
        `${loaded ? "loaded the saved index of" : "indexed"} ${skills.length} skills in ${Math.round(elapsed)} ms`,
      );
      if (!loaded) this.metrics?.searchIndexBuilt(elapsed / 1000);
      if (key !== undefined && !loaded) this.#save(key);
    }
    return this.#ranker;
  }

  /** Whether the ranker took a saved index: one that throws on it (a third-party ranker) builds instead. */
  #load(ranker: Ranker, skills: readonly CatalogSkill[], saved: Uint8Array): boolean {
    try {
      return ranker.loadIndex!(skills, saved);
    } catch (error) {
      this.logger.debug(`the ${ranker.name} ranker could not load a saved index: ${errorMessage(error)}`);
      return false;
    }
  }

  /** Saves the index just built, after the answer that built it, unless a change came first. */
  #save(key: string): void {
    const changes = this.#changes;
    this.#saving = new Promise((resolve) => setImmediate(resolve))
      .then(async () => {
        if (changes !== this.#changes || !this.#built) return;
        const bytes = this.#ranker?.saveIndex?.();
        if (bytes) await this.saved!.save(key, bytes);
      })
      .catch((error: unknown) => this.logger.debug(`could not save the search index: ${errorMessage(error)}`));
  }

  /** Resolves once an index being saved has landed (at stop, so that a one-shot command's index reaches the next run). */
  async saving(): Promise<void> {
    await this.#saving;
  }
}

/**
 * The `search_skills` tool: step 1 of 3, the skills that fit a task, ranked, metadata only. It
 * ranks with the ranker a plugin provides (`ranker-fuse`, `ranker-bm25`, or a third-party one),
 * `ranker-bm25` when the config names none.
 */
export default definePlugin({
  name: "search-skills",
  // The whole catalog: one index holds every skill; a caller who may see part of it gets its own.
  consumes: [
    { token: TOKENS.WholeCatalog, wholeCatalog: true },
    // A ranker of this plugin's own: the config's ranker plugin's, else BM25 (the token's default).
    TOKENS.Ranker,
    { token: TOKENS.MetricsRecorder, optional: true },
  ],
  options: searchSkillsOptionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.WholeCatalog);
    const metrics = ctx.resolveOptional(TOKENS.MetricsRecorder);
    const saved = options.diskCache
      ? createSavedIndexes(join(cacheRoot(options.cacheDir, ctx.baseDir), "indexes"), options.maxDiskCacheBytes)
      : undefined;
    const index = new SearchIndex(catalog, ctx.logger, metrics, saved);
    // A caller who may see part of the catalog is ranked over that part alone (word rarity,
    // totals), as a server without the hidden sources would rank it: one index per view, made at
    // its first search. A caller who sees every source is ranked by the whole catalog's index.
    const views = new Map<CatalogView, SearchIndex>();
    let viewRanker: (() => Ranker) | undefined;
    const indexFor = (view: CatalogView): SearchIndex => {
      if (view.sources.length === catalog.sources.length) return index;
      let own = views.get(view);
      if (!own) {
        own = new SearchIndex(view, ctx.logger, metrics);
        own.use(viewRanker!());
        views.set(view, own);
      }
      return own;
    };
    const stopFollowing = catalog.onChange((change) => {
      index.follow(change);
      for (const [view, own] of views) if (touches(view, change)) own.drop();
    });

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
        loading_sources: z
          .array(z.string())
          .optional()
          .describe("sources still loading: their skills are not in these results yet, so search again shortly"),
        warming: z
          .boolean()
          .optional()
          .describe(
            "true while the ranker is still preparing (the semantic ranker's vectors): results are by words alone for now",
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ query, limit = DEFAULT_LIMIT, source }, { catalog: view }) {
        if (!query.trim()) {
          throw new ToolInputError('query is blank: say what the skill should do, e.g. "write a commit message"');
        }
        await catalog.ready();
        if (source !== undefined && !view.sources.some((s) => s.name === source)) {
          const names = view.sources.map((s) => s.name);
          throw new ToolInputError(
            `no source named ${JSON.stringify(source.slice(0, 100))}; ` +
              (names.length > 0 ? `sources: ${names.join(", ")}` : "this server has no skill sources"),
          );
        }
        // Sources that search themselves (a registry) add what they find to the catalog first, so
        // the ranking below weighs their answers with everything else.
        await searchRemoteSources(view, query, { limit, source }, ctx.logger);
        // One result past the limit, so the last one described can be labelled against the next.
        // `total` comes from the ranker's count when it has one; otherwise every match is ranked
        // to be counted. Skills kept from the model (disable-model-invocation) are never found: where
        // the view holds one, every match is ranked and they are left out.
        const ranker = indexFor(view).ranker();
        const hides = view.list().some((skill) => !offeredToModel(skill));
        const counted = ranker.count !== undefined && !hides;
        const ranked = await ranker.search(query, {
          limit: counted ? limit + 1 : Math.max(limit + 1, view.list().length),
          source,
        });
        const seen = hides ? ranked.filter((result) => offeredToModel(result.skill)) : ranked;
        const total = counted ? await ranker.count!(query, { source }) : seen.length;
        const loading = view.loading();
        const answer = {
          ...toAnswer(query, seen, limit, total),
          ...(loading.length > 0 && { loading_sources: loading }),
          ...(ranker.warming?.() && { warming: true }),
        };
        return {
          content: [{ type: "text", text: JSON.stringify(answer) }],
          structuredContent: { ...answer },
        };
      },
    });

    return {
      async start(ctx) {
        const ranker = ctx.resolve(TOKENS.Ranker);
        ctx.logger.debug(`ranking with ${ranker.name}`);
        index.use(ranker);
        const Bm25 = ranker.emptyCopy ? undefined : (await import("../../rankers/ranker-bm25/index.js")).Bm25Ranker;
        if (Bm25 && catalog.restricted) {
          ctx.logger.warn(
            `the ranker ${ranker.name} cannot make an empty copy (Ranker.emptyCopy): callers who see part of the catalog are ranked by BM25`,
          );
        }
        viewRanker = () => ranker.emptyCopy?.() ?? new Bm25!();
      },
      serve(ctx) {
        // After the first load, and after whatever the transport is busy with right now: an agent's
        // first search then finds the index built, and the handshake never waits for it.
        void catalog.ready().then(() => index.warm(ctx.signal, ctx.logger));
      },
      async stop() {
        stopFollowing();
        await index.saving();
      },
    };
  },
});

/** Whether a change concerns a view's sources. */
function touches(view: CatalogView, { added, removed, updated }: CatalogChange): boolean {
  const shown = new Set(view.sources.map((source) => source.name));
  return [added, removed, updated].some((skills) => skills.some((skill) => shown.has(skill.source)));
}

// The semantic ranker labels fused results on the same scale, and keeps its vectors beside the indexes.
export { matchQuality } from "./answer.js";
export { createSavedIndexes, type SavedIndexes } from "./saved-index.js";
