import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import type { CatalogSkill, SkillCatalog } from "../../../skills/catalog.js";
import { summarizeCatalog } from "../../../skills/catalog-summary.js";
import { TOKENS } from "../../../tokens.js";

const optionsSchema = z.strictObject({
  /** The most characters the summary adds to the server's instructions. */
  maxChars: z.number().int().min(300).max(100_000).default(4_000),
  /**
   * How long the start waits for the catalog's first load, so that the first connection's
   * instructions name the skills; 0 starts serving at once.
   */
  waitMs: z.number().int().min(0).max(60_000).default(2_000),
});

const LOADING = "This server's skills were still loading when this connection opened: search or list them to see which it serves.";

/**
 * The served skills, named and described in a line each, in the server's instructions: a host
 * that defers tool descriptions behind a tool search shows the model these, and no tool.
 */
export default definePlugin({
  name: "catalog-summary",
  consumes: [TOKENS.SkillCatalog],
  options: optionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    let loaded = false;
    // The catalog replaces its listing on each change: one summary per listing, however many servers are built.
    const summaries = new WeakMap<readonly CatalogSkill[], string>();
    // Named in the instructions are the skills the caller may see.
    ctx.addInstructions(({ identity }) => (loaded ? summarize(catalog.for(identity), options.maxChars, summaries) : LOADING));
    return {
      async start() {
        const ready = catalog.ready().then(() => (loaded = true));
        if (options.waitMs === 0) return;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([ready, new Promise((resolve) => (timer = setTimeout(resolve, options.waitMs)))]);
        clearTimeout(timer);
      },
    };
  },
});

function summarize(catalog: SkillCatalog, maxChars: number, summaries: WeakMap<readonly CatalogSkill[], string>): string {
  const skills = catalog.list();
  let text = summaries.get(skills);
  if (text === undefined) {
    text = summarizeCatalog(skills, maxChars).text;
    summaries.set(skills, text);
  }
  return text;
}
