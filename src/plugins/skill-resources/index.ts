import { posix } from "node:path";
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Variables } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  type ListResourcesResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { SkillCatalog } from "../../skills/catalog.js";
import { definePlugin } from "../../kernel/config.js";
import { errorMessage, ToolInputError } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import {
  decodeText,
  encodeContent,
  fetchSkillFiles,
  MAX_PATH_CHARS,
  skillFileOptionsSchema,
  type SkillFileOptions,
} from "../../skills/skill-files.js";
import { decodeCursor, page } from "../../skills/page-cursor.js";
import { TOKENS } from "../../tokens.js";
import type { SkillFileContent } from "../../skills/types.js";

/** Resources per resources/list page: about 360 bytes each, so a page is about 70 KB. */
export const RESOURCES_PAGE_SIZE = 200;

/** Where a skill's SKILL.md lives in the URI scheme of the MCP Skills extension draft. */
const DOCUMENT = "SKILL.md";

/**
 * A skill's SKILL.md as `skill://<id>/SKILL.md`, listed, and its files as `skill://<id>/<path>`
 * through a template, in the shape of the draft MCP Skills extension (SEP-2640). The id is
 * percent-encoded: a qualified id holds ":", and a path-qualified one "/".
 */
export function skillUri(id: string, path = DOCUMENT): string {
  return `skill://${encodeURIComponent(id)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** The same skills as the tools, as MCP resources: one template covers every skill, however the catalog changes. */
export default definePlugin({
  name: "skill-resources",
  consumes: [TOKENS.SkillCatalog],
  options: skillFileOptionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    ctx.extendServer((server) => {
      register(server, catalog, options, ctx.logger);
      paginateResourceList(server);
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
  const template = new ResourceTemplate("skill://{skill}/{+path}", {
    async list() {
      await catalog.ready();
      return {
        resources: catalog.list().map((skill) => ({
          uri: skillUri(skill.id),
          name: skill.id,
          title: skill.name,
          description: skill.description,
          mimeType: "text/markdown",
        })),
      };
    },
  });
  server.registerResource(
    "skill",
    template,
    {
      title: "Agent Skill files",
      description:
        "skill://<id>/SKILL.md is a skill's instructions (each listed); skill://<id>/<path> is one of the files " +
        "read_skill lists for it. The id is percent-encoded (a qualified id's ':' as %3A).",
    },
    async (uri, variables) => {
      try {
        return await read(uri, variables, catalog, options, logger);
      } catch (error) {
        if (error instanceof McpError) throw error;
        if (error instanceof ToolInputError) throw new McpError(ErrorCode.InvalidParams, error.message);
        logger.error(`reading resource ${uri.href.slice(0, MAX_PATH_CHARS)} failed: ${errorMessage(error)}`);
        throw new McpError(ErrorCode.InternalError, "the resource could not be read");
      }
    },
  );
}

type ListHandler = (request: unknown, extra: unknown) => Promise<ListResourcesResult>;

/**
 * The SDK's resources/list answers every resource at once and ignores cursors: 562 KB at 1,566
 * skills. Its handler is kept (so resources other plugins register are listed too) and its answer
 * cut into pages of RESOURCES_PAGE_SIZE, with MCP's opaque nextCursor. The SDK keeps handlers in
 * a field it does not export; a test fails if that changes.
 */
function paginateResourceList(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, ListHandler> })._requestHandlers;
  const listAll = handlers.get("resources/list");
  if (!listAll) throw new Error("the MCP SDK registered no resources/list handler to paginate");
  server.server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    if (offset === undefined) throw new McpError(ErrorCode.InvalidParams, "cursor is not a nextCursor this server gave");
    const all = await listAll(request, extra);
    const { items, nextCursor } = page(all.resources, offset, RESOURCES_PAGE_SIZE);
    return { ...all, resources: items, ...(nextCursor ? { nextCursor } : {}) };
  });
}

async function read(
  uri: URL,
  variables: Variables,
  catalog: SkillCatalog,
  options: SkillFileOptions,
  logger: Logger,
): Promise<ReadResourceResult> {
  const id = decodeComponent(variables.skill, "skill id");
  const path = decodePath(variables.path);
  await catalog.ready();
  const skill = catalog.resolve(id);
  if (path === DOCUMENT) {
    const document = await catalog.readDocument(skill, options.maxFileBytes);
    return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: decodeText(document.bytes, document.truncated), ...meta(document) }] };
  }
  const fetched = (await fetchSkillFiles(catalog, skill, [path], options, logger))[0]!;
  if ("error" in fetched) throw new McpError(ErrorCode.InvalidParams, `${fetched.path}: ${fetched.error}`);
  const { content, encoding } = encodeContent(fetched.file.bytes, fetched.file.truncated);
  const mimeType = mimeTypeOf(path, encoding);
  const contents =
    encoding === "utf8"
      ? { uri: uri.href, mimeType, text: content, ...meta(fetched.file) }
      : { uri: uri.href, mimeType, blob: content, ...meta(fetched.file) };
  return { contents: [contents] };
}

/** A cut file says so where a client can see it without parsing the content. */
function meta(file: SkillFileContent): { _meta?: { truncated: true; size: number } } {
  return file.truncated ? { _meta: { truncated: true, size: file.size } } : {};
}

function decodeComponent(value: Variables[string] | undefined, what: string): string {
  const raw = Array.isArray(value) ? value.join(",") : (value ?? "");
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `the ${what} in the URI is not valid percent-encoding`);
  }
}

/**
 * The file path of a URI, decoded segment by segment: an encoded "/" inside a segment would join
 * two segments the URI keeps apart, so it is refused rather than decoded. What decodes is then
 * checked like any path an agent gives.
 */
function decodePath(value: Variables[string] | undefined): string {
  const raw = Array.isArray(value) ? value.join(",") : (value ?? "");
  const segments = raw.split("/").map((segment) => {
    const decoded = decodeComponent(segment, "file path");
    if (decoded.includes("/")) throw new McpError(ErrorCode.InvalidParams, "the file path in the URI holds an encoded '/'");
    return decoded;
  });
  return segments.join("/");
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".csv": "text/csv",
  ".html": "text/html",
  ".xml": "application/xml",
  ".py": "text/x-python",
  ".js": "text/javascript",
  ".sh": "application/x-sh",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
};

function mimeTypeOf(path: string, encoding: "utf8" | "base64"): string {
  return MIME_TYPES[posix.extname(path).toLowerCase()] ?? (encoding === "utf8" ? "text/plain" : "application/octet-stream");
}
