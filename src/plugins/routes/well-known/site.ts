import { createHash } from "node:crypto";
import { SKILL_LIMITS } from "@modelcontextprotocol/server/ext/skills";
import pLimit from "p-limit";
import type { Logger } from "../../../kernel/logger.js";
import { errorMessage, SkillFileError, ToolInputError } from "../../../kernel/errors.js";
import { packTarGz, ustarPathProblem, type ArchiveFile } from "../../../skills/archives/pack.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { FETCHABLE_FILES_LIMIT, withoutSecrets } from "../../../skills/files/skill-files.js";
import { MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, NAME_PATTERN } from "../../../skills/skill-md/skill-md.js";
import { DISCOVERY_SCHEMA, type DiscoveryEntry, type DiscoveryIndex } from "../../../skills/discovery/discovery.js";

/** Where the index and its artifacts live below a site's root (the Well-Known URI of the spec). */
export const WELL_KNOWN_PATH = "/.well-known/agent-skills";
export const INDEX_FILE = "index.json";

/** One file the site serves below WELL_KNOWN_PATH: its bytes, their media type and ETag. */
export interface Artifact {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly etag: string;
  /**
   * A digest of what the skill's folder was when this was built (its name, description, and
   * each file's size and mtime); undefined when its source cannot tell (no mtimes).
   */
  readonly folderVersion?: string;
}

/**
 * A previous build's artifact for a skill whose folder is at `folderVersion`, at `path`: its
 * bytes, or undefined to build it again. Whatever supplies them has checked them (a digest).
 */
export type PreviousArtifact = (path: string, folderVersion: string) => Promise<Uint8Array | undefined>;

/** A skill the index leaves out, and why (the site's diagnostics). */
export interface LeftOut {
  readonly skill: string;
  readonly code: "invalid-name" | "invalid-description" | "over-limit" | "unreadable";
  readonly reason: string;
}

/** The discovery site of one catalog view: the index, each artifact by its path below WELL_KNOWN_PATH, and what was left out. */
export interface Site {
  readonly index: DiscoveryIndex;
  /** The index as served: JSON, two-space indented, ending in a newline. */
  readonly indexBytes: Uint8Array;
  /** A strong ETag of indexBytes. */
  readonly etag: string;
  /** By path below WELL_KNOWN_PATH, without the leading "/": `name/SKILL.md`, `name.tar.gz`. */
  readonly artifacts: ReadonlyMap<string, Artifact>;
  readonly leftOut: readonly LeftOut[];
}

const MARKDOWN = "text/markdown; charset=utf-8";
const GZIP = "application/gzip";

/** Skills read at once while a site is built. */
const BUILD_CONCURRENCY = 8;

interface Built {
  readonly entry: Omit<DiscoveryEntry, "url">;
  /** Below WELL_KNOWN_PATH. */
  readonly path: string;
  readonly artifact: Artifact;
}

/** What one skill's folder was when its artifact was built; undefined when its source cannot tell (no mtimes). */
type FolderVersion = string | undefined;

/**
 * Builds discovery sites (the 0.2.0 index and its artifacts) from catalog views. A skill whose
 * folder is its SKILL.md alone is a `skill-md` entry; any other is an `archive` (a deterministic
 * .tar.gz). Each skill's artifact is kept by its folder's version (sizes and mtimes), so a
 * rebuild with nothing changed reads no file and packs nothing (nor does it make a first read
 * that the audit's warn mode checks).
 */
export class SiteBuilder {
  readonly #built = new Map<string, { readonly version: string; readonly result: Built | LeftOut }>();

  /** `previous`: artifacts an earlier build kept (an export's files), reused when the folder is unchanged. */
  constructor(
    private readonly logger: Logger,
    private readonly previous?: PreviousArtifact,
  ) {}

  /** `baseUrl`: absolute artifact urls under it (a CDN's origin); relative to the index otherwise. */
  async build(catalog: CatalogView, signal: AbortSignal, baseUrl?: string): Promise<Site> {
    const named = catalog.list().filter((skill) => !skill.shadowed);
    const results = await pLimit(BUILD_CONCURRENCY).map(named, async (skill) => {
      signal.throwIfAborted();
      return this.#skill(catalog, skill, keyOf(skill), signal);
    });
    const entries: DiscoveryEntry[] = [];
    const artifacts = new Map<string, Artifact>();
    const leftOut: LeftOut[] = [];
    for (const result of results) {
      if ("code" in result) {
        leftOut.push(result);
        continue;
      }
      const url =
        baseUrl === undefined ? result.path : `${baseUrl.replace(/\/+$/, "")}${WELL_KNOWN_PATH}/${result.path}`;
      const { name, type, description, digest } = result.entry;
      entries.push({ name, type, description, url, digest });
      artifacts.set(result.path, result.artifact);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const index: DiscoveryIndex = { $schema: DISCOVERY_SCHEMA, skills: entries };
    const indexBytes = new TextEncoder().encode(`${JSON.stringify(index, null, 2)}\n`);
    const etag = `"${createHash("sha256").update(indexBytes).digest("base64url").slice(0, 27)}"`;
    return { index, indexBytes, etag, artifacts, leftOut };
  }

  /** Drop what was kept for skills the catalog no longer holds. */
  forget(skills: readonly CatalogSkill[]): void {
    for (const skill of skills) this.#built.delete(keyOf(skill));
  }

  async #skill(catalog: CatalogView, skill: CatalogSkill, key: string, signal: AbortSignal): Promise<Built | LeftOut> {
    const refused = (code: LeftOut["code"], reason: string): LeftOut => ({ skill: skill.qualifiedId, code, reason });
    if (skill.name.length > MAX_NAME_CHARS || !NAME_PATTERN.test(skill.name)) {
      return refused(
        "invalid-name",
        `"${skill.name.slice(0, 80)}" is not a valid Agent Skills name (lowercase letters, digits and single hyphens, at most ${MAX_NAME_CHARS})`,
      );
    }
    if (skill.description.trim() === "" || skill.description.length > MAX_DESCRIPTION_CHARS) {
      return refused(
        "invalid-description",
        `its description is empty or longer than ${MAX_DESCRIPTION_CHARS} characters`,
      );
    }
    try {
      const listing = withoutSecrets(await catalog.listFiles(skill, FETCHABLE_FILES_LIMIT, signal), false);
      if (!listing.complete || listing.omitted > 0 || listing.files.length + 1 > SKILL_LIMITS.files) {
        return refused("over-limit", `it has more than ${SKILL_LIMITS.files} files (SKILL.md included)`);
      }
      const head = await catalog.readDocument(skill, 0, signal);
      const version = folderVersion(skill, head.size, head.mtimeMs, listing.files);
      const known = this.#built.get(key);
      if (version !== undefined && known?.version === version) return known.result;
      const result =
        (version !== undefined && (await this.#reuse(skill, listing.files.length === 0, version))) ||
        (await this.#pack(catalog, skill, listing.files, signal, refused, version));
      if (version !== undefined) this.#built.set(key, { version, result });
      return result;
    } catch (error) {
      if (error instanceof SkillFileError) return refused("unreadable", `${error.path}: ${error.reason}`);
      if (error instanceof ToolInputError) return refused("unreadable", error.message);
      if (signal.aborted) throw error;
      this.logger.error(`building the discovery artifact of ${skill.qualifiedId} failed: ${errorMessage(error)}`);
      return refused("unreadable", "its files could not be read; the server's log has the details");
    }
  }

  async #reuse(skill: CatalogSkill, documentOnly: boolean, folderVersion: string): Promise<Built | undefined> {
    if (this.previous === undefined) return undefined;
    const path = documentOnly ? `${skill.name}/SKILL.md` : `${skill.name}.tar.gz`;
    const bytes = await this.previous(path, folderVersion);
    if (bytes === undefined) return undefined;
    const digest = digestOf(bytes);
    return {
      entry: { name: skill.name, description: skill.description, type: documentOnly ? "skill-md" : "archive", digest },
      path,
      artifact: { bytes, contentType: documentOnly ? MARKDOWN : GZIP, etag: etagOf(digest), folderVersion },
    };
  }

  async #pack(
    catalog: CatalogView,
    skill: CatalogSkill,
    files: readonly { readonly path: string; readonly size: number }[],
    signal: AbortSignal,
    refused: (code: LeftOut["code"], reason: string) => LeftOut,
    folderVersion: FolderVersion,
  ): Promise<Built | LeftOut> {
    const document = await catalog.readDocument(skill, SKILL_LIMITS.bytes, signal);
    if (document.truncated) return refused("over-limit", `its SKILL.md is larger than ${SKILL_LIMITS.bytes} bytes`);
    const entry = { name: skill.name, description: skill.description };
    if (files.length === 0) {
      const digest = digestOf(document.bytes);
      return {
        entry: { ...entry, type: "skill-md", digest },
        path: `${skill.name}/SKILL.md`,
        artifact: { bytes: document.bytes, contentType: MARKDOWN, etag: etagOf(digest), folderVersion },
      };
    }
    const packed: ArchiveFile[] = [{ path: "SKILL.md", bytes: document.bytes }];
    let total = document.bytes.length;
    for (const file of files) {
      const problem = ustarPathProblem(file.path);
      if (problem) return refused("over-limit", problem);
      const read = await catalog.readFile(skill, file.path, SKILL_LIMITS.bytes - total, signal);
      total += read.size;
      if (read.truncated || total > SKILL_LIMITS.bytes)
        return refused("over-limit", `its files total more than ${SKILL_LIMITS.bytes} bytes`);
      packed.push({ path: file.path, bytes: read.bytes });
    }
    const bytes = await packTarGz(packed);
    const digest = digestOf(bytes);
    return {
      entry: { ...entry, type: "archive", digest },
      path: `${skill.name}.tar.gz`,
      artifact: { bytes, contentType: GZIP, etag: etagOf(digest), folderVersion },
    };
  }
}

function keyOf(skill: CatalogSkill): string {
  return `${skill.source}\u0000${skill.path}`;
}

/** A strong ETag from a `sha256:{hex}` digest, so an artifact's bytes are hashed once. */
function etagOf(digest: string): string {
  return `"${Buffer.from(digest.slice("sha256:".length), "hex").toString("base64url").slice(0, 27)}"`;
}

/** `sha256:{hex}` of exactly these bytes, the spec's digest. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function folderVersion(
  skill: CatalogSkill,
  documentSize: number,
  documentMtime: number | undefined,
  files: readonly { readonly path: string; readonly size: number; readonly mtimeMs?: number }[],
): FolderVersion {
  if (documentMtime === undefined || files.some((file) => file.mtimeMs === undefined)) return undefined;
  const described = JSON.stringify([
    skill.name,
    skill.description,
    documentSize,
    documentMtime,
    files.map((file) => [file.path, file.size, file.mtimeMs]),
  ]);
  return createHash("sha256").update(described).digest("hex");
}
