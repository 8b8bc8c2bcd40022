import { z } from "zod";
import { definePlugin } from "../../kernel/config.js";
import { TOKENS } from "../../tokens.js";
import { LIST_FORMATS, renderSkillList, toSkillList } from "./format.js";

/** The `list_skills` tool: every served skill, in one of three formats. */
export default definePlugin({
  name: "list-skills",
  consumes: [TOKENS.SkillCatalog],
  setup(ctx) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    ctx.addTool({
      name: "list_skills",
      title: "List skills",
      description:
        "List every Agent Skill this server serves. format: names-only (default: one id per line, cheapest), " +
        "json ({ total, skills: [{ id, name, description, source, path }] }) or full (readable, with descriptions). " +
        "Call a skill by its id: its name, or source:name when another skill has the same name.",
      inputSchema: {
        format: z
          .enum(LIST_FORMATS)
          .optional()
          .describe("names-only (default), json or full"),
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
            path: z.string().optional(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ format = "names-only" }) {
        await catalog.ready();
        const list = toSkillList(catalog.list(), format);
        const sources = catalog.sources.map((s) => `${s.name} (${s.description})`);
        return {
          content: [{ type: "text", text: renderSkillList(list, sources) }],
          structuredContent: { ...list },
        };
      },
    });
  },
});
