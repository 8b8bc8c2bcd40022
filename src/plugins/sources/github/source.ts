import type { Logger } from "../../../kernel/logger.js";
import type { HttpClient } from "../../../remote/http.js";
import { ageOf } from "../../../remote/age.js";
import { pollEvery, pollFreshness } from "../../../remote/poll.js";
import { createRemoteFiles } from "../../../remote/remote-files.js";
import type { Diagnostic, CatalogSource, SourceSnapshot } from "../../../skills/types.js";
import type { GitHubApi, GitHubTreeEntry } from "./api.js";
import { COMMIT } from "../../../remote/git/spec.js";
import { scanRepository } from "./repository.js";

export interface GitHubSourceSettings {
  readonly name: string;
  readonly owner: string;
  readonly repo: string;
  readonly ref?: string;
  readonly path?: string;
  readonly maxDepth: number;
  /** How long the ref's commit is trusted: a served kernel reloads this often. */
  readonly refTtlMs: number;
  readonly maxSkills: number;
  readonly concurrency: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
  readonly api: GitHubApi;
  readonly http: HttpClient;
  readonly logger: Logger;
}

/**
 * A GitHub repository as a skill source, through the REST API: no git needed. A load costs one
 * conditional request for the ref (a 304 while it has not moved), then nothing for a commit
 * already seen: its tree and SKILL.md files are cached by id. Other files are downloaded when read.
 */
export function createGitHubSource(settings: GitHubSourceSettings): CatalogSource {
  const { owner, repo, api } = settings;
  let commit = "";
  let blobs = new Map<string, Map<string, GitHubTreeEntry>>();
  const files = createRemoteFiles((skillPath, file, signal) => {
    const entry = blobs.get(skillPath)?.get(file);
    if (!entry) throw new Error(`${file} is not in the last listing`);
    return api.blob(owner, repo, commit, entry, signal);
  });
  const at = `${owner}/${repo}${settings.ref ? `#${settings.ref}` : ""}${settings.path ? `:${settings.path}` : ""}`;
  return {
    name: settings.name,
    description: `github:${at}`,
    async load(signal, options): Promise<SourceSnapshot> {
      settings.http.resetBudget();
      const head = await api.commit(owner, repo, settings.ref, signal, options?.revalidate ? 0 : undefined);
      const tree = await api.tree(owner, repo, head.commit, signal);
      if (settings.path && !tree.entries.some((entry) => entry.type === "tree" && entry.path === settings.path)) {
        throw new Error(`${owner}/${repo} has no folder "${settings.path}" at ${head.commit.slice(0, 12)}`);
      }
      const scan = await scanRepository(
        api,
        tree.entries,
        { ...settings, source: settings.name, commit: head.commit, path: settings.path ?? "" },
        signal,
      );
      commit = head.commit;
      blobs = scan.blobs;
      files.remember(scan.folders);
      const notes: Diagnostic[] = [];
      const note = (code: string, message: string) =>
        notes.push({ severity: "warning", source: settings.name, path: "", code, message });
      if (head.stale)
        note(
          "stale",
          `serving commit ${commit.slice(0, 12)}, checked ${ageOf(head.fetchedAt)}: GitHub could not be asked for a newer one (${head.error})`,
        );
      if (tree.truncated)
        note(
          "tree-truncated",
          `GitHub listed only part of ${owner}/${repo}'s tree; name a folder (path) to see all of it`,
        );
      const rate = api.rateLimit;
      if (rate)
        settings.logger.debug(
          `${settings.name}: ${at} at ${commit.slice(0, 12)}; API requests left: ${rate.remaining}/${rate.limit}`,
        );
      return { skills: scan.skills, diagnostics: [...notes, ...scan.diagnostics] };
    },
    readDocument: files.readDocument,
    listFiles: files.listFiles,
    readFile: files.readFile,
    watch: pollEvery(settings.ref !== undefined && COMMIT.test(settings.ref) ? undefined : settings.refTtlMs),
    freshness: pollFreshness(settings.ref !== undefined && COMMIT.test(settings.ref) ? undefined : settings.refTtlMs),
  };
}
