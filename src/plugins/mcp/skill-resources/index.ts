import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { definePlugin } from "../../../kernel/config.js";
import { errorMessage, ToolInputError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { ServerBuild } from "../../../kernel/types.js";
import { completeUriPath, completeUriSkill } from "../../../skills/catalog/completion.js";
import {
  MAX_PATH_CHARS,
  MiB,
  skillFileOptionsSchema,
  type SkillFileOptions,
} from "../../../skills/files/skill-files.js";
import { readSkillResource, skillDocuments } from "../../../skills/files/skill-resource.js";
import { decodeOffset, page } from "../../../skills/catalog/page-cursor.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";

/** Resources per resources/list page: a page a client reads at once, however many files the skills hold. */
export const RESOURCES_PAGE_SIZE = 200;

/**
 * Whole files by default, up to the skills extension's 16 MiB per skill: a host checks what it
 * reads against the digest and size of the whole file (docs/skills-extension.md).
 */
const optionsSchema = skillFileOptionsSchema.extend({
  /** The most of one file (SKILL.md included) returned; the rest is cut, and the cut is said. */
  maxFileBytes: z
    .number()
    .int()
    .min(1)
    .max(16 * MiB)
    .default(16 * MiB),
});

/**
 * The same skills as the tools, as MCP resources: one template covers every skill, however the
 * catalog changes, and resources/list lists each SKILL.md in pages. With skills-extension in the
 * config, the SDK's SkillsExtension serves the files through its own template, `skill://{+path}`:
 * this plugin has it attached before registering its own, so it is the one reads reach, in
 * whatever order the two plugins are set up; this plugin's template is still listed, since it is
 * the one that completes (completion/complete: skill names, then the paths inside a skill).
 */
export default definePlugin({
  name: "skill-resources",
  // Read from start on: it orders nothing, since whichever plugin's extension runs first attaches it.
  consumes: [{ token: INTERNAL_TOKENS.SkillFileServer, optional: true, fromStart: true }],
  options: optionsSchema,
  setup(ctx, options) {
    let serveSkillFiles: ((server: McpServer, build: ServerBuild) => void) | undefined;
    // Named: the kernel tells contributions apart by name, and an anonymous function's is "".
    // Each server answers one caller: it lists and reads what that caller may see.
    const skillResources = (server: McpServer, build: ServerBuild) => {
      const { catalog: view } = build;
      serveSkillFiles?.(server, build);
      registerTemplate(server, view, options, ctx.logger);
      registerPagedList(server, view);
    };
    ctx.extendServer(skillResources);
    return {
      start(started) {
        serveSkillFiles = started.resolveOptional(INTERNAL_TOKENS.SkillFileServer);
      },
    };
  },
});

function registerTemplate(server: McpServer, catalog: CatalogView, options: SkillFileOptions, logger: Logger): void {
  // Listed by the paged resources/list below, not through the template's list callback: the
  // SDK's own handler answers every resource at once and ignores cursors.
  const template = new ResourceTemplate("skill://{skill}/{+path}", {
    list: undefined,
    // completion/complete: skill names by prefix, then the paths inside the skill (src/skills/catalog/completion.ts).
    complete: {
      skill: async (value) => {
        await catalog.ready();
        return completeUriSkill(catalog.list(), value);
      },
      path: async (value, context) => {
        await catalog.ready();
        return completeUriPath(catalog, context?.arguments?.skill ?? "", value, options.includeSecretFiles);
      },
    },
  });
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
        const read = await readSkillResource(catalog, uri.href, options, logger);
        if ("miss" in read) {
          if (read.miss === "missing") throw new ResourceNotFoundError(uri.href, read.message);
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, read.message, { uri: uri.href });
        }
        // A cut file says so where a client can see it without parsing the content.
        const meta = read.file.truncated ? { _meta: { truncated: true, size: read.file.size } } : {};
        const body = read.encoding === "utf8" ? { text: read.content } : { blob: read.content };
        return { contents: [{ uri: uri.href, mimeType: read.mimeType, ...body, ...meta }] };
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        if (error instanceof ToolInputError)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { uri: uri.href });
        logger.error(`reading resource ${uri.href.slice(0, MAX_PATH_CHARS)} failed: ${errorMessage(error)}`);
        throw new ProtocolError(ProtocolErrorCode.InternalError, "the resource could not be read");
      }
    },
  );
}

/** resources/list in pages of RESOURCES_PAGE_SIZE with MCP's opaque nextCursor: the SDK's lists all at once. */
function registerPagedList(server: McpServer, catalog: CatalogView): void {
  server.server.setRequestHandler("resources/list", async (request) => {
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : decodeOffset(cursor);
    if (offset === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "cursor is not a nextCursor this server gave");
    await catalog.ready();
    const { items, nextCursor } = page(skillDocuments(catalog), offset, RESOURCES_PAGE_SIZE);
    return { resources: items, ...(nextCursor ? { nextCursor } : {}) };
  });
}
