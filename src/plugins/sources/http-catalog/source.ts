import type { Logger } from "../../../kernel/logger.js";
import { decodeText } from "../../../skills/skill-files.js";
import type { Diagnostic, SkillSource, SourceSkill, SourceSnapshot } from "../../../skills/types.js";
import type { RemoteDocuments } from "../../../remote/documents.js";
import { redact, type HttpClient } from "../../../remote/http.js";
import { ageOf } from "../../../remote/age.js";
import { pollEvery, pollFreshness } from "../../../remote/poll.js";
import { createRemoteFiles, toListing, type RemoteSkillFolder } from "../../../remote/remote-files.js";
import { parseCatalog, type CatalogEntry, type CatalogFormat } from "./catalog-document.js";

export interface CatalogSourceSettings {
  readonly name: string;
  /** The catalog document's URL. */
  readonly url: string;
  readonly format: CatalogFormat | "auto";
  /** Where the agent-skills shape's files live; `skills/` next to the catalog by default. */
  readonly filesBaseUrl?: string;
  /** The catalog and files without a content hash are revalidated once this old. */
  readonly ttlMs: number;
  readonly maxCatalogBytes: number;
  readonly maxFileBytes: number;
  readonly maxSkills: number;
  readonly http: HttpClient;
  readonly documents: RemoteDocuments;
  readonly logger: Logger;
}

/**
 * A JSON catalog over HTTP as a skill source. Listing costs one request (a 304 once cached): names
 * and descriptions come from the catalog; a SKILL.md and its files are downloaded when read.
 */
export function createCatalogSource(settings: CatalogSourceSettings): SkillSource {
  let entries = new Map<string, CatalogEntry>();
  let base = new URL(settings.url);
  const files = createRemoteFiles(async (skillPath, file, signal) => {
    const entry = entries.get(skillPath);
    const url = new URL(`${encodePath(skillPath)}/${encodePath(file)}`, base).href;
    const request = { maxBytes: settings.maxFileBytes, signal };
    if (entry?.contentHash) return settings.documents.immutable(`${entry.contentHash}/${skillPath}/${file}`, url, request);
    return (await settings.documents.revalidated(url, settings.ttlMs, request)).body;
  });
  return {
    name: settings.name,
    // Shown to agents (list_skills names each source): never a token in the query or credentials.
    description: redact(settings.url),
    async load(signal, options): Promise<SourceSnapshot> {
      settings.http.resetBudget();
      const fetched = await settings.documents.revalidated(settings.url, options?.revalidate ? 0 : settings.ttlMs, {
        maxBytes: settings.maxCatalogBytes,
        headers: { accept: "application/json" },
        signal,
      });
      const parsed = parseCatalog(decodeText(fetched.body, false), settings.format, settings.name, settings.maxSkills);
      base =
        parsed.format === "well-known"
          ? new URL("./", settings.url)
          : new URL(settings.filesBaseUrl ? withSlash(settings.filesBaseUrl) : "skills/", settings.url);
      entries = new Map(parsed.entries.map((entry) => [entry.path, entry]));
      const folders = new Map<string, RemoteSkillFolder>();
      for (const entry of parsed.entries) {
        const document = entry.files.find((file) => file === "SKILL.md") ?? entry.files.find((file) => file.toLowerCase() === "skill.md")!;
        // A catalog gives no sizes: 0 until a file is downloaded.
        folders.set(entry.path, toListing(entry.files.map((path) => ({ path, size: 0 })), document));
      }
      files.remember(folders);
      const diagnostics: Diagnostic[] = [...parsed.diagnostics];
      if (fetched.stale) {
        diagnostics.unshift({ severity: "warning", source: settings.name, path: "", code: "stale", message: `serving the catalog as fetched ${ageOf(fetched.fetchedAt)}: ${fetched.error}` });
      }
      return { skills: parsed.entries.map(toSkill), diagnostics };
    },
    readDocument: files.readDocument,
    listFiles: files.listFiles,
    readFile: files.readFile,
    watch: pollEvery(settings.ttlMs),
    freshness: pollFreshness(settings.ttlMs),
  };
}

function toSkill(entry: CatalogEntry): SourceSkill {
  const frontmatter: Record<string, unknown> = Object.create(null);
  frontmatter.name = entry.name;
  frontmatter.description = entry.description;
  if (entry.category !== undefined) frontmatter.category = entry.category;
  return { name: entry.name, description: entry.description, path: entry.path, frontmatter, excerpt: "", rank: 0 };
}

/** Each segment percent-encoded: a name can never become a query, a fragment or another folder. */
function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}
