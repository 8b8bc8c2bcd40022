import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { oneLine, summarizeCatalog } from "../../../skills/catalog/catalog-summary.js";
import { offeredToModel } from "../../../skills/skill-md/claude-fields.js";

const optionsSchema = z.strictObject({
  /** The most characters the summary adds to the server's instructions. */
  maxChars: z.number().int().min(300).max(100_000).default(4_000),
});

const LOADING =
  "This server's skills were still loading when this connection opened: search or list them to see which it serves.";

/** Said after the summary when some sources had not loaded yet; bounded, since source names are config. */
const stillLoading = (sources: readonly string[]) =>
  `Still loading when this connection opened: ${oneLine(sources.join(", "), 200)}; search or list the skills to see the rest.`;

/**
 * The served skills, named and described in a line each, in the server's instructions: a host
 * that defers tool descriptions behind a tool search shows the model these, and no tool. It never
 * waits for the catalog: each server built summarizes the skills loaded by then, and says which
 * sources were still loading, so the instructions never hold up an answer.
 */
export default definePlugin({
  name: "catalog-summary",
  options: optionsSchema,
  setup(ctx, options) {
    // The catalog replaces its listing on each change: one summary per listing and loading state,
    // however many servers are built.
    const summaries = new WeakMap<readonly CatalogSkill[], { loading: string; text: string }>();
    // Named in the instructions are the skills the caller may see.
    ctx.addInstructions(({ catalog }) => summarize(catalog, options.maxChars, summaries));
  },
});

function summarize(
  catalog: CatalogView,
  maxChars: number,
  summaries: WeakMap<readonly CatalogSkill[], { loading: string; text: string }>,
): string {
  const skills = catalog.list();
  const loading = catalog.loading();
  const key = loading.join("\n");
  const cached = summaries.get(skills);
  if (cached?.loading === key) return cached.text;
  let text: string;
  // A skill its author keeps from the model (disable-model-invocation) is not announced.
  const offered = skills.filter(offeredToModel);
  if (loading.length === 0) text = summarizeCatalog(offered, maxChars).text;
  else if (skills.length === 0) text = LOADING;
  else {
    const note = stillLoading(loading);
    text = `${summarizeCatalog(offered, maxChars - note.length - 1).text}\n${note}`;
  }
  summaries.set(skills, { loading: key, text });
  return text;
}
