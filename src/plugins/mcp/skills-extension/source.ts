import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { SkillReadResult, SkillSource } from "@modelcontextprotocol/server/ext/skills";
import { errorMessage, ToolInputError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { readSkillResource, skillDocuments } from "../../../skills/files/skill-resource.js";
import { mapSkillUris, noSkillAt, parseSkillUri, SKILL_DOCUMENT } from "../../../skills/files/skill-uri.js";
import { readDirectory } from "./directory.js";
import { MAX_SKILL_BYTES } from "./entries.js";
import type { SkillListing } from "./listing.js";

/**
 * The catalog as the SDK's SkillsExtension sees it: the SDK answers skills/list, skills/get,
 * resources/directory/read and the `skill://` reads, checks every entry it publishes, and turns
 * an `undefined` here into -32602; this says what is served.
 */
export class CatalogSkillSource implements SkillSource {
  constructor(
    private readonly catalog: CatalogView,
    private readonly listing: SkillListing,
    private readonly includeSecretFiles: boolean,
    private readonly logger: Logger,
  ) {}

  async list({ cursor }: { cursor?: string }, ctx: ServerContext) {
    await this.catalog.ready();
    return this.listing.page(mapSkillUris(this.catalog.list()), cursor, ctx.mcpReq.signal);
  }

  /** The entry, or -32602 with the reason (a typo's likely skill, why a skill is left out). */
  async get(uri: string, ctx: ServerContext) {
    const segments = segmentsOf(uri);
    if (segments.length < 2 || segments.at(-1) !== SKILL_DOCUMENT) {
      throw invalid(uri, `${uri} is not the URI of a skill's SKILL.md (skill://<skill-path>/SKILL.md)`);
    }
    await this.catalog.ready();
    const map = mapSkillUris(this.catalog.list());
    const found = map.locate(segments.slice(0, -1));
    if (!found) throw invalid(uri, noSkillAt(map, uri, segments));
    if (found.path !== "") throw invalid(uri, `no skill is served at ${uri}; it is a file of ${found.mapped.uri}`);
    const result = await this.listing.entry(found.mapped, ctx.mcpReq.signal);
    if (!("entry" in result))
      throw invalid(uri, `${uri} is not served through the skills extension: ${result.problem}`);
    return result.entry;
  }

  async read(uri: string): Promise<SkillReadResult | undefined> {
    try {
      // Whole files up to the extension's limit: a host checks them against the entry's digest.
      const read = await readSkillResource(
        this.catalog,
        uri,
        { maxFileBytes: MAX_SKILL_BYTES, includeSecretFiles: this.includeSecretFiles },
        this.logger,
      );
      // -32602 with the uri in data either way; the message says why (a typo's likely skill).
      if ("miss" in read)
        throw read.miss === "missing" ? new ResourceNotFoundError(uri, read.message) : invalid(uri, read.message);
      return read.encoding === "utf8"
        ? { text: read.content, mimeType: read.mimeType }
        : { bytes: read.file.bytes, mimeType: read.mimeType };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof ToolInputError)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { uri });
      this.logger.error(`reading ${uri.slice(0, 300)} failed: ${errorMessage(error)}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, "the resource could not be read");
    }
  }

  async readDirectory(uri: string, { cursor }: { cursor?: string }, ctx: ServerContext) {
    const segments = segmentsOf(uri);
    await this.catalog.ready();
    const map = mapSkillUris(this.catalog.list());
    const found = map.locate(segments);
    if (!found) throw invalid(uri, `no directory is served at ${uri}: ${noSkillAt(map, uri, segments)}`);
    return readDirectory(this.catalog, found, uri, cursor, this.includeSecretFiles, ctx.mcpReq.signal);
  }

  async listResources() {
    await this.catalog.ready();
    return skillDocuments(this.catalog);
  }
}

function invalid(uri: string, message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { uri });
}

/** The URI's path segments, or -32602 saying why it is no skill URI. */
function segmentsOf(uri: string): string[] {
  const parsed = parseSkillUri(uri);
  if ("problem" in parsed) throw invalid(uri, `${uri.slice(0, 300)} is not a skill URI: ${parsed.problem}`);
  return parsed.segments;
}
