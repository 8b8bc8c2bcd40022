import type { GetPromptResult, PromptMessage } from "@modelcontextprotocol/server";
import { ToolInputError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { listCatalog } from "../../../skills/catalog/catalog-summary.js";
import { mimeTypeByName } from "../../../skills/files/mime-types.js";
import {
  decodeText,
  encodeContent,
  fetchSkillFiles,
  truncationNote,
  type SkillFileOptions,
} from "../../../skills/files/skill-files.js";
import { mapSkillUris, SKILL_DOCUMENT, skillFileUri, type MappedSkill } from "../../../skills/files/skill-uri.js";

/** The most the listing prompt's text holds: past it, it says how many skills it left out. */
export const LISTING_MAX_CHARS = 60_000;

/** What the listing prompt answers: every served skill, one line each, and how to get one. */
export function listingResult(skills: readonly CatalogSkill[]): GetPromptResult {
  const { text } = listCatalog(skills, LISTING_MAX_CHARS);
  const how =
    skills.length === 0
      ? ""
      : `\n\nTo use one, get its prompt (named after the skill), or this prompt with the skill argument set to its id.`;
  return {
    description: "The skills this server serves",
    messages: [{ role: "user", content: { type: "text", text: `${text}${how}` } }],
  };
}

/**
 * A skill's prompt: a user message asking to follow the skill, its SKILL.md as an embedded
 * resource, and the file asked for (one the whitelist serves) as a second one.
 */
export async function skillResult(
  catalog: CatalogView,
  skill: CatalogSkill,
  file: string | undefined,
  options: SkillFileOptions,
  logger: Logger,
  /** What the user gave the prompt's `arguments` (a skill with an argument-hint takes them). */
  given?: string,
): Promise<GetPromptResult> {
  const mapped = mapSkillUris(catalog.list()).get(skill.qualifiedId);
  const document = await catalog.readDocument(skill, options.maxFileBytes);
  const body =
    decodeText(document.bytes, document.truncated) + (document.truncated ? `\n\n${truncationNote(document)}` : "");
  const where = mapped ? ` The files it refers to are relative to ${mapped.root}/.` : "";
  const messages: PromptMessage[] = [
    {
      role: "user",
      content: {
        type: "text",
        text: `Use the skill "${skill.id}" for the task at hand: follow its instructions (SKILL.md) below.${where}${given?.trim() ? `\n\nArguments: ${given.trim()}` : ""}`,
      },
    },
    {
      role: "user",
      content: mapped
        ? { type: "resource", resource: { uri: mapped.uri, mimeType: "text/markdown", text: body } }
        : { type: "text", text: body },
    },
  ];
  if (file !== undefined) messages.push(await fileMessage(catalog, skill, file, mapped, options, logger));
  return { description: skill.description, messages };
}

async function fileMessage(
  catalog: CatalogView,
  skill: CatalogSkill,
  path: string,
  mapped: MappedSkill | undefined,
  options: SkillFileOptions,
  logger: Logger,
): Promise<PromptMessage> {
  if (path === SKILL_DOCUMENT)
    throw new ToolInputError(`file: the SKILL.md is always included; name one of the skill's other files`);
  const fetched = (await fetchSkillFiles(catalog, skill, [path], options, logger))[0]!;
  if ("error" in fetched) throw new ToolInputError(`file ${JSON.stringify(fetched.path)}: ${fetched.error}`);
  const { content, encoding } = encodeContent(fetched.file.bytes, fetched.file.truncated);
  if (mapped === undefined) {
    // No URI to embed it under: text is all a prompt message can carry without one.
    return {
      role: "user",
      content: { type: "text", text: encoding === "utf8" ? content : `[${path}: binary, ${fetched.file.size} bytes]` },
    };
  }
  const uri = skillFileUri(mapped, path);
  const mimeType = mimeTypeByName(path) ?? (encoding === "utf8" ? "text/plain" : "application/octet-stream");
  return {
    role: "user",
    content: {
      type: "resource",
      resource: encoding === "utf8" ? { uri, mimeType, text: content } : { uri, mimeType, blob: content },
    },
  };
}
