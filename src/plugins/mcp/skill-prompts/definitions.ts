import { completable, ProtocolError, ProtocolErrorCode, type GetPromptResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { errorMessage, ToolInputError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { oneLine } from "../../../skills/catalog/catalog-summary.js";
import { argumentHint } from "../../../skills/skill-md/claude-fields.js";
import { completeSkillFiles, completeSkillIds } from "../../../skills/catalog/completion.js";
import type { SkillFileOptions } from "../../../skills/files/skill-files.js";
import { listingResult, skillResult } from "./messages.js";
import { LISTING_PROMPT, planSkillPrompts } from "./names.js";

/** A prompt as McpServer.registerPrompt takes it. */
export interface PromptDefinition {
  readonly name: string;
  readonly config: { readonly title?: string; readonly description: string; readonly argsSchema: z.ZodObject };
  readonly callback: (args: { skill?: string; file?: string; arguments?: string }) => Promise<GetPromptResult>;
  /** A skill's `argument-hint`: its `arguments` argument's description. */
  readonly hint?: string;
}

const FILE_DESCRIPTION = "One of the skill's other files to include too, by its path in the skill folder";

/**
 * The prompts of one plugin instance, made once and shared by every server it extends (HTTP
 * builds one per request): the listing prompt, and each skill's, made on first use.
 */
export interface PromptBook {
  readonly listing: PromptDefinition;
  /** The skills' prompts for the catalog as it is: at most maxSkillPrompts, each with its current description. */
  current(): readonly PromptDefinition[];
}

export function createPromptBook(
  catalog: CatalogView,
  options: SkillFileOptions & { readonly maxSkillPrompts: number },
  logger: Logger,
): PromptBook {
  const listing: PromptDefinition = {
    name: LISTING_PROMPT,
    config: {
      title: "Skills",
      description: "Every skill this server serves, one line each; with a skill id, that skill's instructions instead.",
      argsSchema: z.object({
        skill: completable(
          z.string().describe("A skill's id, as listed: its instructions instead of the list"),
          async (value) => {
            await catalog.ready();
            return completeSkillIds(catalog.list(), value);
          },
        ).optional(),
        file: completable(
          z.string().describe(`With skill: ${FILE_DESCRIPTION.toLowerCase()}`),
          async (value, context) => {
            await catalog.ready();
            const skill = catalog.get(context?.arguments?.skill ?? "");
            return skill ? completeSkillFiles(catalog, skill, value, options.includeSecretFiles) : [];
          },
        ).optional(),
      }),
    },
    callback: ({ skill, file }) =>
      answer(LISTING_PROMPT, logger, async () => {
        await catalog.ready();
        if (skill === undefined) {
          if (file !== undefined) throw new ToolInputError("file needs skill: name the skill the file is in");
          return listingResult(catalog.list());
        }
        return skillResult(catalog, catalog.resolve(skill), file, options, logger);
      }),
  };

  const skillPrompt = (name: string, description: string, hint: string | undefined): PromptDefinition => ({
    name,
    hint,
    config: {
      description,
      argsSchema: z.object({
        // Claude Code's argument-hint says what the skill takes; a skill without one takes none.
        ...(hint === undefined ? {} : { arguments: z.string().describe(hint).optional() }),
        file: completable(z.string().describe(FILE_DESCRIPTION), async (value) => {
          await catalog.ready();
          const skill = catalog.get(name);
          return skill ? completeSkillFiles(catalog, skill, value, options.includeSecretFiles) : [];
        }).optional(),
      }),
    },
    callback: ({ file, arguments: given }) =>
      answer(name, logger, async () => {
        await catalog.ready();
        return skillResult(catalog, catalog.resolve(name), file, options, logger, given);
      }),
  });

  // Made once per name and description; the catalog replaces its listing on each change.
  const made = new Map<string, PromptDefinition>();
  const plans = new WeakMap<readonly CatalogSkill[], readonly PromptDefinition[]>();
  const said = new Set<string>();
  const sayOnce = (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    logger.info(line);
  };

  return {
    listing,
    current() {
      const skills = catalog.list();
      let definitions = plans.get(skills);
      if (definitions) return definitions;
      const plan = planSkillPrompts(skills);
      for (const { skill, reason } of plan.skipped) {
        sayOnce(`skill ${skill.qualifiedId} has no prompt of its own (the skills prompt reaches it): ${reason}`);
      }
      const kept = plan.prompts.slice(0, options.maxSkillPrompts);
      if (plan.prompts.length > kept.length) {
        const left = plan.prompts.length - kept.length;
        sayOnce(
          `${left} ${left === 1 ? "skill has no prompt of its own" : "skills have no prompt of their own"} past maxSkillPrompts ` +
            `(${options.maxSkillPrompts}); the skills prompt reaches them`,
        );
      }
      definitions = kept.map(({ name, skill }) => {
        const description = oneLine(skill.description, 1_024);
        const hint = argumentHint(skill);
        let definition = made.get(name);
        if (definition?.config.description !== description || definition.hint !== hint) {
          definition = skillPrompt(name, description, hint);
          made.set(name, definition);
        }
        return definition;
      });
      plans.set(skills, definitions);
      return definitions;
    },
  };
}

/**
 * Runs a prompt: input the client can fix is an invalid-params error that says why; anything
 * else is a bug, logged in full, and the client learns only that the prompt failed.
 */
async function answer<T>(prompt: string, logger: Logger, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ToolInputError)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompt ${prompt}: ${error.message}`);
    logger.error(`prompt ${prompt} failed: ${errorMessage(error)}`);
    if (error instanceof Error && error.stack) logger.debug(error.stack);
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `prompt ${prompt}: internal error; the server's log has the details`,
    );
  }
}
