import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { McpServer, RegisteredPrompt } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError as ProtocolError, ErrorCode as ProtocolErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { definePlugin } from "../../kernel/config.js";
import { errorMessage, ToolInputError } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import type { SkillCatalog } from "../../skills/catalog.js";
import { oneLine } from "../../skills/catalog-summary.js";
import { completeSkillFiles, completeSkillIds } from "../../skills/completion.js";
import { skillFileOptionsSchema, type SkillFileOptions } from "../../skills/skill-files.js";
import { TOKENS } from "../../tokens.js";
import { listingResult, skillResult } from "./messages.js";
import { LISTING_PROMPT, planSkillPrompts } from "./names.js";

const optionsSchema = skillFileOptionsSchema.extend({
  /**
   * How many skills get a prompt of their own, in catalog order: clients show each as a slash
   * command, and prompts/list has no pages. The listing prompt reaches every skill.
   */
  maxSkillPrompts: z.number().int().min(0).max(10_000).default(500),
});

type Options = z.infer<typeof optionsSchema>;

const FILE_DESCRIPTION = "One of the skill's other files to include too, by its path in the skill folder";

/** The served skills as MCP prompts, which clients offer as slash commands. */
export default definePlugin({
  name: "skill-prompts",
  consumes: [TOKENS.SkillCatalog],
  options: optionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    // What was said about skills left without a prompt, so each is said once, not per connection.
    const said = new Set<string>();
    const sayOnce = (line: string) => {
      if (said.has(line)) return;
      said.add(line);
      ctx.logger.info(line);
    };
    ctx.extendServer((server) => {
      registerListing(server, catalog, options, ctx.logger);
      const sync = syncSkillPrompts(server, catalog, options, ctx.logger, sayOnce);
      sync();
      // Each added, removed or changed prompt notifies prompts list_changed (the SDK does).
      return catalog.onChange(sync);
    });
  },
});

function registerListing(server: McpServer, catalog: SkillCatalog, options: SkillFileOptions, logger: Logger): void {
  server.registerPrompt(
    LISTING_PROMPT,
    {
      title: "Skills",
      description: "Every skill this server serves, one line each; with a skill id, that skill's instructions instead.",
      argsSchema: ({
        skill: completable(z.string().optional().describe("A skill's id, as listed: its instructions instead of the list"), async (value) => {
          await catalog.ready();
          return completeSkillIds(catalog.list(), value ?? "");
        }),
        file: completable(z.string().optional().describe(`With skill: ${FILE_DESCRIPTION.toLowerCase()}`), async (value, context) => {
          await catalog.ready();
          const skill = catalog.get(context?.arguments?.skill ?? "");
          return skill ? completeSkillFiles(catalog, skill, value ?? "", options.includeSecretFiles) : [];
        }),
      }),
    },
    ({ skill, file }) =>
      answer(LISTING_PROMPT, logger, async () => {
        await catalog.ready();
        if (skill === undefined) {
          if (file !== undefined) throw new ToolInputError("file needs skill: name the skill the file is in");
          return listingResult(catalog.list());
        }
        return skillResult(catalog, catalog.resolve(skill), file, options, logger);
      }),
  );
}

/** Keeps one prompt per skill (as planSkillPrompts decides) in step with the catalog. */
function syncSkillPrompts(
  server: McpServer,
  catalog: SkillCatalog,
  options: Options,
  logger: Logger,
  sayOnce: (line: string) => void,
): () => void {
  const registered = new Map<string, { prompt: RegisteredPrompt; description: string }>();
  return () => {
    const plan = planSkillPrompts(catalog.list());
    for (const { skill, reason } of plan.skipped) sayOnce(`skill ${skill.qualifiedId} has no prompt of its own (the skills prompt reaches it): ${reason}`);
    const wanted = plan.prompts.slice(0, options.maxSkillPrompts);
    if (plan.prompts.length > wanted.length) {
      sayOnce(`${plan.prompts.length - wanted.length} skills have no prompt of their own past maxSkillPrompts (${options.maxSkillPrompts}); the skills prompt reaches them`);
    }
    const names = new Set(wanted.map((entry) => entry.name));
    for (const [name, entry] of registered) {
      if (names.has(name)) continue;
      entry.prompt.remove();
      registered.delete(name);
    }
    for (const { name, skill } of wanted) {
      const description = oneLine(skill.description, 1_024);
      const had = registered.get(name);
      if (had) {
        if (had.description !== description) had.prompt.update({ description });
        had.description = description;
        continue;
      }
      try {
        registered.set(name, { prompt: registerSkillPrompt(server, name, description, catalog, options, logger), description });
      } catch (error) {
        // Another plugin's prompt has this name: the first registered keeps it.
        sayOnce(`skill ${skill.qualifiedId} has no prompt of its own: ${errorMessage(error)}`);
      }
    }
  };
}

function registerSkillPrompt(
  server: McpServer,
  name: string,
  description: string,
  catalog: SkillCatalog,
  options: SkillFileOptions,
  logger: Logger,
): RegisteredPrompt {
  return server.registerPrompt(
    name,
    {
      description,
      argsSchema: ({
        file: completable(z.string().optional().describe(FILE_DESCRIPTION), async (value) => {
          await catalog.ready();
          const skill = catalog.get(name);
          return skill ? completeSkillFiles(catalog, skill, value ?? "", options.includeSecretFiles) : [];
        }),
      }),
    },
    ({ file }) =>
      answer(name, logger, async () => {
        await catalog.ready();
        return skillResult(catalog, catalog.resolve(name), file, options, logger);
      }),
  );
}

/**
 * Runs a prompt: input the client can fix is an invalid-params error that says why; anything
 * else is a bug, logged in full, and the client learns only that the prompt failed.
 */
async function answer<T>(prompt: string, logger: Logger, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ToolInputError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompt ${prompt}: ${error.message}`);
    logger.error(`prompt ${prompt} failed: ${errorMessage(error)}`);
    if (error instanceof Error && error.stack) logger.debug(error.stack);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `prompt ${prompt}: internal error; the server's log has the details`);
  }
}
