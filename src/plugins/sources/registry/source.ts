import { posix } from "node:path";
import pLimit from "p-limit";
import type { Cache, JsonValue } from "../../../kernel/cache.js";
import { errorMessage, SkillFileError } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { RemoteDocuments } from "../../../remote/documents.js";
import type { HttpClient } from "../../../remote/http.js";
import { createRemoteFiles, type RemoteSkillFolder } from "../../../remote/remote-files.js";
import { decodeText } from "../../../skills/files/skill-files.js";
import type { CatalogSource, SourceSkill, SourceSnapshot } from "../../../skills/types.js";
import { SKILL_FILES } from "../../../skills/files/folder-rules.js";
import { scanRepository, type GitHubApi, type GitHubTreeEntry } from "../github/index.js";
import { isRegistryId, parseSearchAnswer, type RegistryHit } from "./search-api.js";

export interface RegistrySourceSettings {
  readonly name: string;
  /** The registry's search endpoint, e.g. https://skills.sh/api/search. */
  readonly searchUrl: string;
  readonly searchTtlMs: number;
  /** How many discovered skills are remembered (and listed) at most; the oldest go first. */
  readonly maxSkills: number;
  readonly concurrency: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
  /** The registry's own client and documents. */
  readonly http: HttpClient;
  readonly documents: RemoteDocuments;
  /** Content comes from GitHub. */
  readonly github: GitHubApi;
  readonly cache: Cache;
  readonly logger: Logger;
}

/** Where one discovered skill lives on GitHub, found when it is first read. */
interface Located {
  readonly owner: string;
  readonly repo: string;
  readonly commit: string;
  readonly folder: RemoteSkillFolder;
  readonly blobs: ReadonlyMap<string, GitHubTreeEntry>;
}

const DISCOVERED_KEY = "discovered";
const KEEP_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * A skills registry (skills.sh and its like) as a source. A registry is too large to list: it
 * is asked through `search`, and the skills it names (`owner/repo/skill`) are read from GitHub
 * and remembered, so they are listed, readable and installable from then on, across restarts.
 */
export function createRegistrySource(settings: RegistrySourceSettings): CatalogSource {
  let discovered: SourceSkill[] | undefined;
  const located = new Map<string, Located>();
  const watchers = new Set<() => void>();
  const files = createRemoteFiles(async (skillPath, file, signal) => {
    const where = located.get(skillPath);
    const entry = where?.blobs.get(file);
    if (!where || !entry) throw new SkillFileError(file, "no such file");
    return settings.github.blob(where.owner, where.repo, where.commit, entry, signal);
  });

  const remembered = async (): Promise<SourceSkill[]> => {
    discovered ??= ((await settings.cache.get<JsonValue[]>(DISCOVERED_KEY)) ?? []).filter(isSourceSkill);
    return discovered;
  };

  /** The skill's folder in its repository at the default branch's head: a folder named after it holding a SKILL.md. */
  const locate = async (
    hit: RegistryHit,
    signal?: AbortSignal,
  ): Promise<{ skill: SourceSkill; where: Located } | undefined> => {
    const head = await settings.github.commit(hit.owner, hit.repo, undefined, signal);
    const tree = await settings.github.tree(hit.owner, hit.repo, head.commit, signal);
    const folders = tree.entries
      .filter((entry) => entry.type === "blob" && SKILL_FILES.includes(posix.basename(entry.path)))
      .map((entry) => posix.dirname(entry.path))
      .filter((folder) => (folder === "." ? hit.repo : posix.basename(folder)) === hit.skill)
      .sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
    const folder = folders[0];
    if (folder === undefined) return undefined;
    const scan = await scanRepository(
      settings.github,
      tree.entries,
      {
        ...settings,
        source: settings.name,
        owner: hit.owner,
        repo: hit.repo,
        commit: head.commit,
        path: folder === "." ? "" : folder,
        maxDepth: 0,
        maxSkills: 1,
      },
      signal ?? new AbortController().signal,
    );
    const skill = scan.skills[0];
    const listing = scan.folders.get("");
    if (!skill || !listing) return undefined;
    return {
      skill: { ...skill, path: hit.id },
      where: {
        owner: hit.owner,
        repo: hit.repo,
        commit: head.commit,
        folder: listing,
        blobs: scan.blobs.get("") ?? new Map(),
      },
    };
  };

  const ensureLocated = async (skillPath: string, signal?: AbortSignal): Promise<void> => {
    if (located.has(skillPath)) return;
    const [owner, repo, skill] = skillPath.split("/");
    const found = owner && repo && skill ? await locate({ id: skillPath, owner, repo, skill }, signal) : undefined;
    if (!found) throw new SkillFileError("SKILL.md", `${skillPath} is no longer on GitHub where the registry said`);
    located.set(skillPath, found.where);
    files.remember(new Map([...located].map(([path, where]) => [path, where.folder])));
  };

  return {
    name: settings.name,
    description: `registry ${new URL(settings.searchUrl).origin}`,
    async load(): Promise<SourceSnapshot> {
      settings.http.resetBudget();
      return { skills: await remembered(), diagnostics: [] };
    },
    async search(query, { limit, signal }) {
      const url = new URL(settings.searchUrl);
      url.searchParams.set("q", query);
      url.searchParams.set("limit", String(limit));
      const answer = await settings.documents.revalidated(url.href, settings.searchTtlMs, {
        maxBytes: 1024 * 1024,
        signal,
      });
      const hits = parseSearchAnswer(decodeText(answer.body, false)).slice(0, limit);
      const found = await pLimit(settings.concurrency).map(hits, async (hit) => {
        signal?.throwIfAborted();
        try {
          const result = await locate(hit, signal);
          if (result) located.set(hit.id, result.where);
          return result?.skill;
        } catch (error) {
          if (signal?.aborted) throw error;
          settings.logger.debug(`${settings.name}: ${hit.id} could not be read from GitHub: ${errorMessage(error)}`);
          return undefined;
        }
      });
      const skills = found.filter((skill): skill is SourceSkill => skill !== undefined);
      files.remember(new Map([...located].map(([path, where]) => [path, where.folder])));
      const known = await remembered();
      const fresh = skills.filter((skill) => !known.some((other) => other.path === skill.path));
      const changed = skills.filter((skill) =>
        known.some((other) => other.path === skill.path && JSON.stringify(other) !== JSON.stringify(skill)),
      );
      if (fresh.length + changed.length > 0) {
        const updated = new Map(known.map((skill) => [skill.path, skill]));
        for (const skill of [...changed, ...fresh]) updated.set(skill.path, skill);
        discovered = [...updated.values()].slice(-settings.maxSkills);
        await settings.cache.set(DISCOVERED_KEY, discovered as unknown as JsonValue, KEEP_MS);
        for (const notify of watchers) notify();
      }
      return skills;
    },
    async readDocument(skillPath, maxBytes, signal) {
      await ensureLocated(skillPath, signal);
      return files.readDocument(skillPath, maxBytes, signal);
    },
    async listFiles(skillPath, limit, signal) {
      await ensureLocated(skillPath, signal);
      return files.listFiles(skillPath, limit, signal);
    },
    async readFile(skillPath, filePath, maxBytes, signal) {
      await ensureLocated(skillPath, signal);
      return files.readFile(skillPath, filePath, maxBytes, signal);
    },
    watch(onChange) {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    // What searches find joins the listing, and the watchers hear of it at once.
    freshness: "announced",
  };
}

function isSourceSkill(value: JsonValue): value is JsonValue & SourceSkill {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const skill = value as Record<string, unknown>;
  return (
    typeof skill.name === "string" &&
    typeof skill.description === "string" &&
    typeof skill.path === "string" &&
    isRegistryId(skill.path) &&
    typeof skill.excerpt === "string" &&
    typeof skill.rank === "number" &&
    typeof skill.frontmatter === "object" &&
    skill.frontmatter !== null
  );
}
