import { join } from "node:path";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import type { ServerBuild } from "../../../kernel/types.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import type { WholeCatalog } from "../../../skills/catalog/catalog.js";
import { oneLine, summarizeCatalog, type SkillPopularity } from "../../../skills/catalog/catalog-summary.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { offeredToModel } from "../../../skills/skill-md/claude-fields.js";
import type { CatalogSource } from "../../../skills/types.js";
import { TOKENS } from "../../../tokens.js";
import { VERSION } from "../../../version.js";
import { rememberedSummaries } from "./remembered.js";

const optionsSchema = z.strictObject({
  /** The most characters the summary adds to the server's instructions. */
  maxChars: z.number().int().min(300).max(100_000).default(4_000),
  /**
   * How long a connection's first server waits, from the catalog's first load, for the local
   * folders to load, so that its instructions name their skills; remote sources are never waited for.
   */
  waitForLocalMs: z.number().int().min(0).max(30_000).default(2_000),
  /** Where each run's summary is kept for the next start: relative to the config's folder, `~` to home. Default: the user's cache folder. */
  cacheDir: z.string().min(1).optional(),
  /** False: keep no summary on disk, so that every start waits for its local sources. */
  diskCache: z.boolean().default(true),
});

/** The summary as the catalog is now, for what joins it after a connection's instructions went out. */
export const SUMMARY_URI = "skills-kernel://catalog/summary";
/** The resource's budget: read on demand, so it may say far more than the instructions. */
const RESOURCE_MAX_CHARS = 60_000;

const LOADING =
  "This server's skills were still loading when this connection opened: search or list them to see which it serves.";

/** Said after the summary when some sources had not loaded yet; bounded, since source names are config. */
const stillLoading = (sources: readonly string[]) =>
  `Still loading when this connection opened: ${oneLine(sources.join(", "), 200)}; their skills join as they load ` +
  `(the resource ${SUMMARY_URI} summarizes the catalog as it is then), and search finds them.`;

/** A source serving folders on this machine: quick to load, so the first connection waits for it. */
const isLocal = (source: CatalogSource) => (source.capabilities?.localFolders?.length ?? 0) > 0;

/**
 * The served skills in the server's instructions: a host that defers tool descriptions behind a
 * tool search shows the model these, and no tool. A catalog that fits is listed whole; a larger
 * one is summarized by source and area with a few examples each (src/skills/catalog/catalog-summary.ts).
 * The instructions go out once per connection, as it opens: a warm start gives the summary the
 * last run kept in the cache folder, at once; without one, a connection's first server waits,
 * within `waitForLocalMs`, for the local folders' first load. What joins later (a remote source)
 * is in the `skills-kernel://catalog/summary` resource, and list_changed tells the client of it.
 */
export default definePlugin({
  name: "catalog-summary",
  // The whole catalog: the local sources' first load, and the summary kept for the next start.
  consumes: [
    { token: TOKENS.WholeCatalog, wholeCatalog: true },
    { token: TOKENS.SkillPopularity, optional: true, wholeCatalog: true },
  ],
  options: optionsSchema,
  setup(ctx, options) {
    const whole = ctx.resolve(TOKENS.WholeCatalog);
    const popularity = ctx.resolveOptional(TOKENS.SkillPopularity);
    const store = options.diskCache
      ? rememberedSummaries(join(cacheRoot(options.cacheDir, ctx.baseDir), "summaries"))
      : undefined;
    let howToSearch: string | undefined;
    /** This run's key for the kept summary, and what the last run kept under it; set at start. */
    let kept: { key: string; text: string | undefined } | undefined;
    // The catalog replaces its listing on each change: one summary per listing and loading state,
    // however many servers are built.
    const summaries = new WeakMap<readonly CatalogSkill[], { loading: string; text: string }>();
    const live = (catalog: CatalogView) => summarize(catalog, options.maxChars, summaries, { howToSearch, popularity });
    // Named in the instructions are the skills the caller may see.
    ctx.addInstructions(
      ({ catalog }) =>
        // Until every source has loaded, the last run's summary of them all says more than this
        // run's part (a summary is kept only where every caller sees every source).
        kept?.text !== undefined && whole.loading().length > 0 ? kept.text : live(catalog),
      {
        settled: () =>
          kept?.text !== undefined ? Promise.resolve() : whole.firstLoadOf(isLocal, options.waitForLocalMs),
      },
    );
    // Named: the kernel tells contributions apart by name, and an anonymous function's is "".
    const summaryResource = (server: McpServer, { catalog }: ServerBuild) =>
      registerSummary(server, catalog, () => ({ howToSearch, popularity }));
    ctx.extendServer(summaryResource);

    /** Keeps the whole catalog's summary for the next start, once every source has loaded. */
    let keeping: Promise<void> | undefined;
    const keep = () => {
      if (!store || !kept || whole.restricted || whole.loading().length > 0) return;
      const text = live(whole);
      if (text === kept.text) return;
      kept = { key: kept.key, text };
      keeping = store.keep(kept.key, text);
    };
    /** Set while serving: a one-shot command's catalog is no start's to remember. */
    let stopFollowing: (() => void) | undefined;
    return {
      start(started) {
        howToSearch = searchAdvice(new Set(started.resolveAll(TOKENS.Tool).map((tool) => tool.name)));
        // Per caller, views may differ: only an unrestricted catalog's summary is kept.
        if (store && !whole.restricted) {
          const key = summaryKey(whole, options.maxChars, howToSearch);
          kept = { key, text: store.recall(key) };
        }
      },
      serve() {
        // After the answers waiting for this change: keeping it is no part of any.
        const later = () => void setTimeout(keep, 0).unref();
        stopFollowing = whole.onChange(later);
        later();
      },
      async stop() {
        if (!stopFollowing) return;
        stopFollowing();
        keep();
        await keeping;
      },
    };
  },
});

/** What a kept summary is for: this release, the budget, the advice and every source, where it reads. */
function summaryKey(whole: WholeCatalog, maxChars: number, howToSearch: string | undefined): string {
  const sources = whole.sources.map((source) => `${source.name}\u0000${source.description}`);
  return [`catalog-summary@${VERSION}`, String(maxChars), howToSearch ?? "", ...sources].join("\u0001");
}

interface Extras {
  readonly howToSearch: string | undefined;
  readonly popularity: SkillPopularity | undefined;
}

function summarize(
  catalog: CatalogView,
  maxChars: number,
  summaries: WeakMap<readonly CatalogSkill[], { loading: string; text: string }>,
  extras: Extras,
): string {
  const skills = catalog.list();
  const loading = catalog.loading();
  const key = loading.join("\n");
  const cached = summaries.get(skills);
  if (cached?.loading === key) return cached.text;
  let text: string;
  // A skill its author keeps from the model (disable-model-invocation) is not announced.
  const offered = skills.filter(offeredToModel);
  if (loading.length === 0) text = summarizeCatalog(offered, maxChars, extras).text;
  else if (skills.length === 0) text = LOADING;
  else {
    const note = stillLoading(loading);
    text = `${summarizeCatalog(offered, maxChars - note.length - 1, extras).text}\n${note}`;
  }
  summaries.set(skills, { loading: key, text });
  return text;
}

/** How to find a skill the summary does not name, with the tools this server has. */
function searchAdvice(tools: ReadonlySet<string>): string | undefined {
  const read = tools.has("read_skill") ? ", then read_skill with the id it gives" : "";
  if (tools.has("search_skills"))
    return `To find the skill for a task, call search_skills with a few words of the task${read}.`;
  if (tools.has("list_skills")) return `list_skills lists every skill${read}.`;
  return undefined;
}

function registerSummary(server: McpServer, catalog: CatalogView, extras: () => Extras): void {
  server.registerResource(
    "catalog-summary",
    SUMMARY_URI,
    {
      title: "What this server's skills cover",
      description:
        "Every source and area of the skills this server serves, with a few skills of each, as the catalog is now.",
      mimeType: "text/markdown",
    },
    async (uri) => {
      await catalog.ready();
      const offered = catalog.list().filter(offeredToModel);
      const { text } = summarizeCatalog(offered, RESOURCE_MAX_CHARS, extras());
      const loading = catalog.loading();
      const note = loading.length > 0 ? `\nStill loading: ${oneLine(loading.join(", "), 200)}.` : "";
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: text + note }] };
    },
  );
}
