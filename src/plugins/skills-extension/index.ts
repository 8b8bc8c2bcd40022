import { ProtocolError, ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { definePlugin } from "../../kernel/config.js";
import { errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import type { SkillCatalog } from "../../skills/catalog.js";
import { INCLUDE_SECRET_FILES_DESCRIPTION } from "../../skills/secret-files.js";
import { mapSkillUris, noSkillAt, parseSkillUri, SKILL_DOCUMENT } from "../../skills/skill-uri.js";
import { TOKENS } from "../../tokens.js";
import { readDirectory } from "./directory.js";
import { EntryBuilder } from "./entries.js";
import { FileFacts } from "./file-facts.js";
import { InvalidParams } from "./invalid-params.js";
import { SkillListing } from "./listing.js";

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

const optionsSchema = z.strictObject({
  /** Entries per skills/list page. An entry carries its whole manifest, up to 512 files. */
  pageSize: z.number().int().min(1).max(1000).default(50),
  /** How long a host may treat a listing or an entry as current (`ttlMs`). */
  ttlMs: z.number().int().min(0).default(60_000),
  /** `cacheScope`: "private" unless the skills served are the same for every user. */
  cacheScope: z.enum(["public", "private"]).default("private"),
  /** Skills served (skills/get, resources/read) but left out of skills/list: plain names or qualified ids. */
  unlisted: z.array(z.string().min(1)).default([]),
  /** As skill-resources' option of that name, which decides whether such files are served: set both alike. */
  includeSecretFiles: z.boolean().default(false).describe(INCLUDE_SECRET_FILES_DESCRIPTION),
});

type Options = z.output<typeof optionsSchema>;

// Params are checked here, not by the SDK's schema parse, whose failure would not be -32602.
const anyParams = { params: z.unknown() };

/**
 * The MCP Skills extension (SEP-2640): skills/list, skills/get and resources/directory/read
 * over the catalog, with skill-resources serving the files themselves (docs/skills-extension.md).
 */
export default definePlugin({
  name: "skills-extension",
  // Its entries point at resources skill-resources serves; without it they could not be read.
  dependsOn: ["skill-resources"],
  consumes: [TOKENS.SkillCatalog, { token: TOKENS.Cache, optional: true }],
  options: optionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.SkillCatalog);
    const facts = new FileFacts(ctx.resolveOptional(TOKENS.Cache));
    const unlisted = new Set(options.unlisted);
    const listing = new SkillListing(
      new EntryBuilder(catalog, facts, options.includeSecretFiles, ctx.logger),
      // As the tools take them: a plain name reaches the skill that wins it, a qualified id exactly one.
      (skill) => unlisted.has(skill.id) || unlisted.has(skill.qualifiedId),
      options.pageSize,
      ctx.logger,
    );
    // Named: the kernel tells contributions apart by name, and an anonymous function's is "".
    const skillsExtension = (server: McpServer) => register(server, catalog, listing, options, ctx.logger);
    ctx.extendServer(skillsExtension);
  },
});

function register(server: McpServer, catalog: SkillCatalog, listing: SkillListing, options: Options, logger: Logger): void {
  server.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } });
  const cacheable = { ttlMs: options.ttlMs, cacheScope: options.cacheScope };

  server.server.setRequestHandler("skills/list", anyParams, (params, extra) =>
    guard("skills/list", logger, async () => {
      const { cursor } = paramsOf(params, false);
      await catalog.ready();
      const page = await listing.page(mapSkillUris(catalog.list()), cursor, extra.mcpReq.signal);
      return { resultType: "complete", ...page, ...cacheable };
    }),
  );

  server.server.setRequestHandler("skills/get", anyParams, (params, extra) =>
    guard("skills/get", logger, async () => {
      const uri = uriOf(params);
      const segments = segmentsOf(uri);
      if (segments.length < 2 || segments.at(-1) !== SKILL_DOCUMENT) {
        throw new InvalidParams(`${uri} is not the URI of a skill's SKILL.md (skill://<skill-path>/SKILL.md)`);
      }
      await catalog.ready();
      const map = mapSkillUris(catalog.list());
      const found = map.locate(segments.slice(0, -1));
      if (!found) throw new InvalidParams(noSkillAt(map, uri, segments));
      if (found.path !== "") throw new InvalidParams(`no skill is served at ${uri}; it is a file of ${found.mapped.uri}`);
      const result = await listing.entry(found.mapped, extra.mcpReq.signal);
      if (!("entry" in result)) {
        throw new InvalidParams(`${uri} is not served through the skills extension: ${result.problem}`);
      }
      return { resultType: "complete", skill: result.entry, ...cacheable };
    }),
  );

  server.server.setRequestHandler("resources/directory/read", anyParams, (params, extra) =>
    guard("resources/directory/read", logger, async () => {
      const uri = uriOf(params);
      const segments = segmentsOf(uri);
      await catalog.ready();
      const map = mapSkillUris(catalog.list());
      const found = map.locate(segments);
      if (!found) throw new InvalidParams(`no directory is served at ${uri}: ${noSkillAt(map, uri, segments)}`);
      const cursor = paramsOf(params, true).cursor;
      return { ...(await readDirectory(catalog, found, uri, cursor, options.includeSecretFiles, extra.mcpReq.signal)) };
    }),
  );
}

/** A host's mistake is -32602 with its reason; anything else is logged and -32603, as the spec asks. */
async function guard<T>(method: string, logger: Logger, handle: () => Promise<T>): Promise<T> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof InvalidParams || error instanceof ProtocolError) throw error;
    logger.error(`${method} failed: ${errorMessage(error)}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `${method} failed; the server's log has the details`);
  }
}

const MAX_URI_CHARS = 4096;

function paramsOf(params: unknown, uriAllowed: boolean): { cursor?: unknown; uri?: unknown } {
  if (params === undefined) return {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new InvalidParams("params must be an object");
  }
  const { cursor, uri } = params as { cursor?: unknown; uri?: unknown };
  if (cursor !== undefined && typeof cursor !== "string") throw new InvalidParams("params.cursor must be a string");
  return uriAllowed ? { cursor, uri } : { cursor };
}

function uriOf(params: unknown): string {
  const { uri } = paramsOf(params, true);
  if (typeof uri !== "string" || uri === "") throw new InvalidParams("params.uri must be a non-empty string");
  if (uri.length > MAX_URI_CHARS) throw new InvalidParams(`params.uri is longer than ${MAX_URI_CHARS} characters`);
  return uri;
}

function segmentsOf(uri: string): string[] {
  const parsed = parseSkillUri(uri);
  if ("problem" in parsed) throw new InvalidParams(`${uri.slice(0, 300)} is not a skill URI: ${parsed.problem}`);
  return parsed.segments;
}
