import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { SkillCatalog } from "../../skills/catalog.js";
import { definePlugin } from "../../kernel/config.js";
import { errorMessage, ToolInputError } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import { mimeTypeByName } from "../../skills/mime-types.js";
import {
  encodeContent,
  fetchSkillFiles,
  MAX_PATH_CHARS,
  MiB,
  skillFileOptionsSchema,
  type SkillFileOptions,
} from "../../skills/skill-files.js";
import { mapSkillUris, noSkillAt, parseSkillUri, SKILL_DOCUMENT } from "../../skills/skill-uri.js";
import { decodeCursor, page } from "../../skills/page-cursor.js";
import { TOKENS } from "../../tokens.js";
import type { SkillFileContent } from "../../skills/types.js";

/** Resources per resources/list page: about 360 bytes each, so a page is about 70 KB. */
export const RESOURCES_PAGE_SIZE = 200;

/**
 * Whole files by default, up to the skills extension's 16 MiB per skill: a host checks what it
 * reads against the digest and size of the whole file (docs/skills-extension.md).
 */
const optionsSchema = skillFileOptionsSchema.extend({
  /** The most of one file (SKILL.md included) returned; the rest is cut, and the cut is said. */
  maxFileBytes: z.number().int().min(1).max(16 * MiB).default(16 * MiB),
});

/** The same skills as the tools, as MCP resources: one template covers every skill, however the catalog changes. */
export default definePlugin({
  name: "skill-resources",
  consumes: [TOKENS.SkillCatalog],
  options: optionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    ctx.extendServer((server) => {
      register(server, catalog, options, ctx.logger);
      // The list of SKILL.md resources follows the catalog: tell the client when it changes.
      return catalog.onChange(() => {
        // Before the client's initialize there is nothing to tell: it will list the resources
        // afresh, and MCP servers must not send notifications that early.
        if (!server.isConnected() || !server.server.getClientCapabilities()) return;
        server.server.sendResourceListChanged().catch((error: unknown) => {
          ctx.logger.debug(`could not announce a resource list change: ${errorMessage(error)}`);
        });
      });
    });
  },
});

function register(server: McpServer, catalog: SkillCatalog, options: SkillFileOptions, logger: Logger): void {
  // Listed by the paged resources/list below, not through the template's list callback: the
  // SDK's own handler answers every resource at once and ignores cursors.
  const template = new ResourceTemplate("skill://{skill}/{+path}", { list: undefined });
  server.registerResource(
    "skill",
    template,
    {
      title: "Agent Skill files",
      description:
        "skill://<skill-path>/SKILL.md is a skill's instructions (each listed); skill://<skill-path>/<file> is one of " +
        "the files read_skill lists for it. The skill path ends with the skill's name, after its source and any " +
        "enclosing skill when those are needed to tell it apart.",
    },
    async (uri) => {
      try {
        return await read(uri, catalog, options, logger);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        if (error instanceof ToolInputError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { uri: uri.href });
        logger.error(`reading resource ${uri.href.slice(0, MAX_PATH_CHARS)} failed: ${errorMessage(error)}`);
        throw new ProtocolError(ProtocolErrorCode.InternalError, "the resource could not be read");
      }
    },
  );
  // Registering the template made the SDK set its resource handlers; this replaces its list.
  server.server.setRequestHandler("resources/list", async (request) => {
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    if (offset === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "cursor is not a nextCursor this server gave");
    await catalog.ready();
    // The skills extension asks for the frontmatter's name; the URI tells same-named skills apart.
    const all: Resource[] = mapSkillUris(catalog.list()).mapped.map(({ skill, uri }) => ({
      uri,
      name: skill.name,
      title: skill.id,
      description: skill.description,
      mimeType: "text/markdown",
    }));
    const { items, nextCursor } = page(all, offset, RESOURCES_PAGE_SIZE);
    return { resources: items, ...(nextCursor ? { nextCursor } : {}) };
  });
}

async function read(uri: URL, catalog: SkillCatalog, options: SkillFileOptions, logger: Logger): Promise<ReadResourceResult> {
  const parsed = parseSkillUri(uri.href);
  if ("problem" in parsed) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri.href.slice(0, 300)}: ${parsed.problem}`, { uri: uri.href });
  await catalog.ready();
  const map = mapSkillUris(catalog.list());
  const found = map.locate(parsed.segments);
  if (!found) throw new ResourceNotFoundError(uri.href, noSkillAt(map, uri.href, parsed.segments));
  const { mapped, path } = found;
  if (path === "") throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri.href} is a skill folder, not a file`, { uri: uri.href });
  let file: SkillFileContent;
  if (path === SKILL_DOCUMENT) {
    file = await catalog.readDocument(mapped.skill, options.maxFileBytes);
  } else {
    const fetched = (await fetchSkillFiles(catalog, mapped.skill, [path], options, logger))[0]!;
    if ("error" in fetched) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${fetched.path}: ${fetched.error}`, { uri: uri.href });
    file = fetched.file;
  }
  // The bytes as they are (a BOM, CRLF, invalid UTF-8 as base64): a host checks them against a digest.
  const { content, encoding } = encodeContent(file.bytes, file.truncated);
  const mimeType = mimeTypeByName(path) ?? (encoding === "utf8" ? "text/plain" : "application/octet-stream");
  const contents =
    encoding === "utf8"
      ? { uri: uri.href, mimeType, text: content, ...meta(file) }
      : { uri: uri.href, mimeType, blob: content, ...meta(file) };
  return { contents: [contents] };
}

/** A cut file says so where a client can see it without parsing the content. */
function meta(file: SkillFileContent): { _meta?: { truncated: true; size: number } } {
  return file.truncated ? { _meta: { truncated: true, size: file.size } } : {};
}
