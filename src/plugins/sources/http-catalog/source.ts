import type { Logger } from "../../../kernel/logger.js";
import { decodeText } from "../../../skills/files/skill-files.js";
import type { Diagnostic, CatalogSource, SourceSkill, SourceSnapshot } from "../../../skills/types.js";
import type { RemoteDocuments } from "../../../remote/documents.js";
import { redact, type HttpClient } from "../../../remote/http.js";
import { ageOf } from "../../../remote/age.js";
import { pollEvery, pollFreshness } from "../../../remote/poll.js";
import { createRemoteFiles, toListing, type RemoteSkillFolder } from "../../../remote/remote-files.js";
import type { UnpackLimits } from "../../../skills/archives/unpack.js";
import { isRecord } from "../../../skills/skill-md/skill-md.js";
import { loadArtifact, type UnpackedSkill } from "./artifacts.js";
import { parseCatalogData, parseJson, type CatalogEntry, type CatalogFormat } from "./catalog-document.js";
import { isDiscoveryIndex, parseDiscoveryIndex } from "../../../skills/discovery/discovery-reader.js";

export interface CatalogSourceSettings {
  readonly name: string;
  /** The catalog document's URL: the first of `candidates` that answers. */
  readonly url: string;
  /** For a site: its 0.2.0 index (/.well-known/agent-skills), then the older /.well-known/skills. */
  readonly candidates: readonly string[];
  readonly format: CatalogFormat | "auto";
  /** Where the agent-skills shape's files live; `skills/` next to the catalog by default. */
  readonly filesBaseUrl?: string;
  /** The catalog and files without a content hash are revalidated once this old. */
  readonly ttlMs: number;
  readonly maxCatalogBytes: number;
  readonly maxFileBytes: number;
  readonly maxSkills: number;
  readonly maxFrontmatterBytes: number;
  readonly unpackLimits: UnpackLimits;
  readonly http: HttpClient;
  readonly documents: RemoteDocuments;
  readonly logger: Logger;
}

/**
 * A JSON catalog over HTTP as a skill source. Listing costs one request (a 304 once cached): names
 * and descriptions come from the catalog; a SKILL.md and its files are downloaded when read.
 */
export function createCatalogSource(settings: CatalogSourceSettings): CatalogSource {
  let entries = new Map<string, CatalogEntry>();
  let base = new URL(settings.url);
  let indexUrl = settings.candidates[0]!;
  // Skills of a 0.2.0 index: read whole out of their checked artifacts at load.
  let unpacked = new Map<string, UnpackedSkill>();
  const files = createRemoteFiles(async (skillPath, file, signal) => {
    const held = unpacked.get(skillPath);
    if (held) return held.files.get(file) ?? new Uint8Array();
    const entry = entries.get(skillPath);
    const url = new URL(`${encodePath(skillPath)}/${encodePath(file)}`, base).href;
    const request = { maxBytes: settings.maxFileBytes, signal };
    if (entry?.contentHash)
      return settings.documents.immutable(`${entry.contentHash}/${skillPath}/${file}`, url, request);
    return (await settings.documents.revalidated(url, settings.ttlMs, request)).body;
  });
  async function loadDiscovery(
    data: Record<string, unknown>,
    stale: Diagnostic[],
    signal: AbortSignal,
  ): Promise<SourceSnapshot> {
    const parsed = parseDiscoveryIndex(data, indexUrl, settings.name, settings.maxSkills);
    const loads = await Promise.all(
      parsed.entries.map((entry) => loadArtifact(entry, { ...settings, source: settings.name }, signal)),
    );
    const next = new Map<string, UnpackedSkill>();
    const folders = new Map<string, RemoteSkillFolder>();
    for (const [index, { loaded }] of loads.entries()) {
      if (!loaded) continue;
      const artifact = { digest: parsed.entries[index]!.digest, indexUrl };
      next.set(loaded.skill.path, { ...loaded, skill: { ...loaded.skill, artifact } });
      const listed = [...loaded.files].map(([path, bytes]) => ({ path, size: bytes.length }));
      folders.set(loaded.skill.path, toListing(listed, "SKILL.md"));
    }
    unpacked = next;
    entries = new Map();
    files.remember(folders);
    return {
      skills: [...next.values()].map((held) => held.skill),
      diagnostics: [...stale, ...parsed.diagnostics, ...loads.flatMap((load) => load.diagnostics)],
    };
  }

  return {
    name: settings.name,
    // Shown to agents (list_skills names each source): never a token in the query or credentials.
    description: redact(settings.url),
    async load(signal, options): Promise<SourceSnapshot> {
      settings.http.resetBudget();
      const fetchIndex = (url: string) =>
        settings.documents.revalidated(url, options?.revalidate ? 0 : settings.ttlMs, {
          maxBytes: settings.maxCatalogBytes,
          headers: { accept: "application/json" },
          signal,
        });
      let fetched: Awaited<ReturnType<typeof fetchIndex>> | undefined;
      let failure: unknown;
      // The index that answered last is asked first: a site keeps to one format.
      for (const url of [indexUrl, ...settings.candidates.filter((candidate) => candidate !== indexUrl)]) {
        try {
          fetched = await fetchIndex(url);
          indexUrl = url;
          break;
        } catch (error) {
          if (signal.aborted) throw error;
          failure ??= error;
        }
      }
      if (!fetched) throw failure;
      const data = parseJson(decodeText(fetched.body, false));
      const stale: Diagnostic[] = fetched.stale
        ? [
            {
              severity: "warning",
              source: settings.name,
              path: "",
              code: "stale",
              message: `serving the catalog as fetched ${ageOf(fetched.fetchedAt)}: ${fetched.error}`,
            },
          ]
        : [];
      if (isDiscoveryIndex(data) && isRecord(data)) return loadDiscovery(data, stale, signal);
      unpacked = new Map();
      const parsed = parseCatalogData(data, settings.format, settings.name, settings.maxSkills);
      base =
        parsed.format === "well-known"
          ? new URL("./", indexUrl)
          : new URL(settings.filesBaseUrl ? withSlash(settings.filesBaseUrl) : "skills/", indexUrl);
      entries = new Map(parsed.entries.map((entry) => [entry.path, entry]));
      const folders = new Map<string, RemoteSkillFolder>();
      for (const entry of parsed.entries) {
        const document =
          entry.files.find((file) => file === "SKILL.md") ??
          entry.files.find((file) => file.toLowerCase() === "skill.md")!;
        // A catalog gives no sizes: 0 until a file is downloaded.
        folders.set(
          entry.path,
          toListing(
            entry.files.map((path) => ({ path, size: 0 })),
            document,
          ),
        );
      }
      files.remember(folders);
      return { skills: parsed.entries.map(toSkill), diagnostics: [...stale, ...parsed.diagnostics] };
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
