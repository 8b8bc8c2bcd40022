import type { Resource } from "@modelcontextprotocol/server";
import type { Logger } from "../../kernel/logger.js";
import type { CatalogView } from "../catalog/catalog-view.js";
import { ANSWER_CEILING_BYTES, cutToFit } from "./answer-ceiling.js";
import { mimeTypeByName } from "./mime-types.js";
import { encodeContent, fetchSkillFiles, type SkillFileOptions } from "./skill-files.js";
import { mapSkillUris, noSkillAt, parseSkillUri, SKILL_DOCUMENT } from "./skill-uri.js";
import type { SkillFileContent } from "../types.js";

/** One `skill://` file as MCP carries it: text when it is UTF-8, else base64. */
export interface SkillResourceContent {
  readonly uri: string;
  readonly mimeType: string;
  readonly encoding: "utf8" | "base64";
  /** The text, or the base64 of the bytes. */
  readonly content: string;
  readonly file: SkillFileContent;
}

/** Why a `skill://` URI names no file: `missing` (no skill or file there) or `invalid` (not a file URI). */
export type SkillResourceMiss = { readonly miss: "missing" | "invalid"; readonly message: string };

/**
 * The file a `skill://` URI names, read through the catalog with `options`' limits, or why there
 * is none: the one reader behind skill-resources' template and the skills extension's source.
 */
export async function readSkillResource(
  catalog: CatalogView,
  uri: string,
  options: SkillFileOptions,
  logger: Logger,
): Promise<SkillResourceContent | SkillResourceMiss> {
  const parsed = parseSkillUri(uri);
  if ("problem" in parsed) return { miss: "invalid", message: `${uri.slice(0, 300)}: ${parsed.problem}` };
  await catalog.ready();
  const map = mapSkillUris(catalog.list());
  const found = map.locate(parsed.segments);
  if (!found) return { miss: "missing", message: noSkillAt(map, uri, parsed.segments) };
  const { mapped, path } = found;
  if (path === "") return { miss: "invalid", message: `${uri} is a skill folder, not a file` };
  let file: SkillFileContent;
  if (path === SKILL_DOCUMENT) {
    file = await catalog.readDocument(mapped.skill, options.maxFileBytes);
  } else {
    const fetched = (await fetchSkillFiles(catalog, mapped.skill, [path], options, logger))[0]!;
    if ("error" in fetched) return { miss: "missing", message: `${fetched.path}: ${fetched.error}` };
    file = fetched.file;
  }
  // A file larger than an answer may be is cut to what fits (file.truncated says so).
  file = cutToFit(file, 1, ANSWER_CEILING_BYTES);
  // The bytes as they are (a BOM, CRLF, invalid UTF-8 as base64): a host checks them against a digest.
  const { content, encoding } = encodeContent(file.bytes, file.truncated);
  const mimeType = mimeTypeByName(path) ?? (encoding === "utf8" ? "text/plain" : "application/octet-stream");
  return { uri, mimeType, encoding, content, file };
}

/** Each served skill's SKILL.md as a resource: the frontmatter's name, as the skills extension asks; the URI tells same-named skills apart. */
export function skillDocuments(catalog: CatalogView): Resource[] {
  return mapSkillUris(catalog.list()).mapped.map(({ skill, uri }) => ({
    uri,
    name: skill.name,
    title: skill.id,
    description: skill.description,
    mimeType: "text/markdown",
  }));
}
