import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { ToolInputError } from "../../../kernel/errors.js";
import { decodeOffset, page } from "../../../skills/catalog/page-cursor.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { LIST_FORMATS, PAGE_SIZES, MAX_PAGE_SIZE, renderSkillList, sortedByName, toSkillList } from "./format.js";
import { offeredToModel } from "../../../skills/skill-md/claude-fields.js";

/** The `list_skills` tool: every served skill, in one of three formats, a page at a time. */
export default definePlugin({
  name: "list-skills",
  setup(ctx) {
    ctx.addTool({
      name: "list_skills",
      title: "List skills",
      description:
        "List every Agent Skill this server serves. format: names-only (default: one id per line, cheapest), " +
        "json ({ total, skills: [{ id, name, description, when_to_use?, source, path }], next_cursor? }) or full (readable, with descriptions). " +
        `Answers come in pages of ${PAGE_SIZES["names-only"]} skills for names-only and ${PAGE_SIZES.json} for json and full; ` +
        "when there are more, next_cursor is set: pass it back as cursor for the next page. " +
        "Call a skill by its id: its name, or source:name when another skill has the same name.",
      inputSchema: {
        format: z.enum(LIST_FORMATS).optional().describe("names-only (default), json or full"),
        cursor: z.string().max(64).optional().describe("next_cursor of the previous page"),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_PAGE_SIZE)
          .optional()
          .describe("skills per page, instead of the format's default"),
        refresh: z
          .boolean()
          .optional()
          .describe(
            "ask git repositories and catalogs for changes now instead of waiting for their refresh interval (slower; only after a push)",
          ),
      },
      outputSchema: {
        format: z.enum(LIST_FORMATS),
        total: z.number().int(),
        skills: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            source: z.string(),
            description: z.string().optional(),
            when_to_use: z
              .string()
              .optional()
              .describe("when the skill applies, as its author put it beside the description"),
            path: z.string().optional(),
          }),
        ),
        next_cursor: z.string().optional().describe("set when more skills follow: pass it as cursor"),
        unavailable_sources: z
          .array(
            z.object({
              source: z.string(),
              state: z.enum(["stale", "failed", "loading"]),
              error: z.string().optional(),
            }),
          )
          .optional()
          .describe(
            "sources missing from this answer or old in it: stale ones are listed from their last good load, failed ones " +
              "not at all, loading ones not yet (ask again shortly)",
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ format = "names-only", cursor, limit, refresh }, { catalog }) {
        const offset = cursor === undefined ? 0 : decodeOffset(cursor);
        if (offset === undefined)
          throw new ToolInputError(
            "cursor is not a next_cursor list_skills gave; leave it out to start from the first page",
          );
        if (refresh) await catalog.within(catalog.refresh(undefined, undefined, { revalidate: true }));
        await catalog.ready();
        // A skill its author keeps from the model (disable-model-invocation) is read by name only.
        const listing = catalog.list().filter(offeredToModel);
        const { items, nextCursor } = page(sortedByName(listing), offset, limit ?? PAGE_SIZES[format]);
        const all = toSkillList(items, format, listing.length);
        const unavailable = [
          ...catalog
            .unavailable()
            .map(({ source, state, error }) => ({ source, state: state as "stale" | "failed", error })),
          ...servingOldCopies(catalog),
          ...catalog.loading().map((source) => ({ source, state: "loading" as const })),
        ];
        const list = {
          ...all,
          ...(nextCursor ? { next_cursor: nextCursor } : {}),
          ...(unavailable.length > 0 ? { unavailable_sources: unavailable } : {}),
        };
        const sources = catalog.sources.map((s) => `${s.name} (${s.description})`);
        return {
          content: [{ type: "text", text: renderSkillList(list, sources) }],
          structuredContent: { ...list },
        };
      },
    });
  },
});

/**
 * Sources that loaded, but from a copy older than their TTL because the remote could not be asked
 * (a `stale` diagnostic: the git, github and http-catalog sources say how old it is).
 */
function servingOldCopies(catalog: CatalogView): { source: string; state: "stale"; error: string }[] {
  const listed = new Set(catalog.unavailable().map((s) => s.source));
  return catalog
    .diagnostics()
    .filter((d) => d.code === "stale" && !listed.has(d.source))
    .map((d) => ({ source: d.source, state: "stale" as const, error: d.message }));
}

// The CLI's list command prints the same pages the tool answers.
export { describeUnavailable, LIST_FORMATS, MAX_PAGE_SIZE, type ListFormat, type SkillList } from "./format.js";
