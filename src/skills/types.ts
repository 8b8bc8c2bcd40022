import type { CatalogSkill } from "./catalog/catalog-types.js";

/*
 * The skill domain's contracts: what a skill source reports and what a ranker does. The kernel
 * knows none of this; plugins meet here through the tokens in ./tokens.ts.
 */

// ---------------------------------------------------------------------------------------------
// Skills
// ---------------------------------------------------------------------------------------------

/** How bad a {@link Diagnostic} is: `error` skipped the skill, `warning` loaded it anyway. */
export type DiagnosticSeverity = "error" | "warning";

/** Something wrong with one skill: `error` means it was skipped, `warning` means it loaded anyway. */
export interface Diagnostic {
  /** Whether the skill was skipped (`error`) or loaded anyway (`warning`). */
  readonly severity: DiagnosticSeverity;
  /** The source that found it. */
  readonly source: string;
  /** Where, relative to the source's root (POSIX separators). */
  readonly path: string;
  /** A stable, machine-readable kind, e.g. "yaml-parse", "missing-description", "name-mismatch". */
  readonly code: string;
  /** What is wrong, in words, for the operator fixing the skill. */
  readonly message: string;
}

/** One skill as a source reports it: metadata and the start of the body, never the whole body. */
export interface SourceSkill {
  /** The skill's name (its frontmatter's, else its folder's): what agents call it by unless another skill takes it. */
  readonly name: string;
  /** The frontmatter's description: what agents read to decide whether to use the skill. */
  readonly description: string;
  /** The skill folder, relative to the source's root, POSIX separators ("" for the root itself). */
  readonly path: string;
  /** The parsed frontmatter as a null-prototype object of plain data. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The start of the markdown body (a couple of thousand characters at most), for ranking. */
  readonly excerpt: string;
  /** Order within the source (lower wins a name clash); e.g. the root's index. */
  readonly rank: number;
  /** The published artifact the skill was read from: a discovery index's, or the archive of an archive source. */
  readonly artifact?: PublishedArtifact;
}

/** A 0.2.0 index entry's artifact, or an archive's: what `add` records so `outdated` can tell it changed. */
export interface PublishedArtifact {
  /** `sha256:{64 hex}` of the artifact's bytes, as the index gives it (and as they were checked), or of the archive read. */
  readonly digest: string;
  /** The index that named it; absent for an archive read on its own. */
  readonly indexUrl?: string;
}

/** How a load should treat what a remote source remembers. */
export interface LoadOptions {
  /** Ask the remote now, as if every TTL had passed (`--refresh`, list_skills' `refresh`). */
  readonly revalidate?: boolean;
}

/** What one `load` of a source found: the skills it serves and the problems it met on the way. */
export interface SourceSnapshot {
  /** Every skill the source serves now; the catalog replaces the source's previous skills with these. */
  readonly skills: readonly SourceSkill[];
  /** The skills skipped or loaded with problems: logged for the operator, and listed by list_skills. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A file of a skill folder other than its SKILL.md. */
export interface ListedFile {
  /** Relative to the skill folder, POSIX separators, never starting with "/" or holding "..". */
  readonly path: string;
  /** The file's size in bytes. */
  readonly size: number;
  /** When the file last changed, if the source knows: with size, what tells one version from the next. */
  readonly mtimeMs?: number;
}

/** What `CatalogSource.listFiles` answers: a skill folder's files, and what it did not list. */
export interface SkillFileListing {
  /** Sorted by path, at most the limit asked for. */
  readonly files: readonly ListedFile[];
  /** How many more files the folder holds beyond `files` (a lower bound when not `complete`). */
  readonly omitted: number;
  /** False when the folder is larger than a listing reads (entry or depth limits). */
  readonly complete: boolean;
  /**
   * Entries the source will not serve, and why (a name no request can spell, a FIFO, a link out
   * of the folder), so that install can say what a copy leaves out. Optional: not every source knows.
   */
  readonly leftOut?: readonly LeftOutFile[];
}

/** An entry of a skill folder that a source will not serve. */
export interface LeftOutFile {
  /** Relative to the skill folder, as found on disk: it may hold characters a request cannot. */
  readonly path: string;
  /** Why it is not served, in words ("not a regular file (a FIFO, socket or device)"). */
  readonly reason: string;
}

/** What a source read of one file (SKILL.md or another): its first bytes, and whether that was all. */
export interface SkillFileContent {
  /** At most the bytes asked for. */
  readonly bytes: Uint8Array;
  /** The whole file's size. */
  readonly size: number;
  /** True when `bytes` stops before the end of the file (it is larger than the bytes asked for). */
  readonly truncated: boolean;
  /** When the file read last changed, if the source knows. */
  readonly mtimeMs?: number;
}

/**
 * What a source declares it can do. Following changes is the `watch` method itself: a source that
 * can watch has one.
 */
export interface SourceCapabilities {
  /**
   * Local folders this source serves and picks new skills up from: `install_skill` may write a
   * skill into one of them and then refreshes this source; `validate_skill` reads paths inside
   * them. A source with none (a remote one) is not an install target.
   */
  readonly localFolders?: readonly string[];
}

/**
 * Where skills come from: local folders, git, HTTP catalogs, registries. Sources are listed in
 * precedence order (the first contributed wins a name clash).
 *
 * Skills are named to a source by `SourceSkill.path`. A source refuses, with a SkillFileError
 * saying why, any file that is not a regular file inside that skill's folder.
 */
export interface CatalogSource {
  /** Unique among sources: the prefix of qualified ids (`source:name`). */
  readonly name: string;
  /** Human-readable location for banners and logs, e.g. the folders it scans. */
  readonly description: string;
  /** What the source can do beyond loading skills and serving their files. */
  readonly capabilities?: SourceCapabilities;
  /** Every skill the source serves now, read afresh or from what it remembers; `signal` aborts the load (shutdown, a timeout). */
  load(signal: AbortSignal, options?: LoadOptions): Promise<SourceSnapshot>;
  /** The skill's SKILL.md, at most maxBytes of it. */
  readDocument(skillPath: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  /** The skill folder's files other than its SKILL.md, at most `limit` of them. */
  listFiles(skillPath: string, limit: number, signal?: AbortSignal): Promise<SkillFileListing>;
  /** One file of the skill folder (a path from listFiles), at most maxBytes of it. */
  readFile(skillPath: string, filePath: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  /**
   * For sources too large to list (a registry): ask the source itself which skills fit `query`,
   * best first. The skills found join what the source's next load() returns, and the source calls
   * its watchers, so after a catalog refresh they are readable like any other; search_skills merges
   * them with its own ranking (src/remote/remote-search.ts).
   */
  search?(
    query: string,
    options: { readonly limit: number; readonly signal?: AbortSignal },
  ): Promise<readonly SourceSkill[]>;
  /**
   * Call `onChange` when skills may have been added, changed or removed (the catalog debounces
   * and reloads). Returns a function that stops watching. Sources that cannot watch omit it.
   */
  watch?(onChange: () => void): () => void;
  /**
   * How soon what the source serves may change, for the caching hints MCP results carry:
   * `announced` when changes reach `watch` as they happen (a watched folder, a registry that
   * grows with searches), `{ refreshMs }` when the source looks for them that often (a remote
   * catalog, a branch), absent when nothing changes until the server restarts.
   */
  readonly freshness?: SourceFreshness;
}

/** How soon what a source serves may change: see {@link CatalogSource.freshness}. */
export type SourceFreshness = "announced" | { readonly refreshMs: number };

// ---------------------------------------------------------------------------------------------
// Ranking
// ---------------------------------------------------------------------------------------------

/** One answer of a ranker's search: a skill and how well it matches. */
export interface RankedSkill {
  /** The skill matched. */
  readonly skill: CatalogSkill;
  /** Normalised to 0-100 (docs/search.md says how, and the match_quality thresholds). */
  readonly score: number;
}

/** What a ranker's `search` is asked for beyond the query. */
export interface RankerSearchOptions {
  /** At most this many results. */
  readonly limit: number;
  /** Only skills of this source. */
  readonly source?: string;
}

/**
 * Orders skills for a query. Built once from the catalog, then kept current incrementally as the
 * catalog changes (a file watcher, an install), so a large catalog is never re-indexed per edit.
 */
export interface Ranker {
  /** The ranker's name, for logs and to key the index it saves, which only the same ranker loads. */
  readonly name: string;
  /** Replace the whole index. */
  build(skills: readonly CatalogSkill[]): void;
  /** Index these skills too, replacing any with the same qualified id (an added or changed skill). */
  add(skills: readonly CatalogSkill[]): void;
  /** By qualified id. */
  remove(qualifiedIds: readonly string[]): void;
  /** Best first, at most `options.limit`. May be asynchronous (an embeddings or remote ranker). */
  search(query: string, options: RankerSearchOptions): RankedSkill[] | Promise<RankedSkill[]>;
  /**
   * How many skills match the query in all: what `search` would return with no limit. Optional:
   * without it, search_skills asks `search` for every skill to count them, which ranks them all.
   */
  count?(query: string, options: Omit<RankerSearchOptions, "limit">): number | Promise<number>;
  /**
   * A ranker of the same kind and settings holding no skills. search_skills keeps one per set of
   * sources a caller may see, so that skills hidden from a caller weigh nothing in its scores
   * (word rarity, totals). Without it, such callers are ranked by BM25 (ranker-bm25's ranker).
   */
  emptyCopy?(): Ranker;
  /**
   * The index `build` just made, as bytes, for a later start over the same skills to load instead
   * of building (search_skills keeps it in the user's cache folder). Optional; undefined when there
   * is nothing to save (skills added or removed since the build).
   */
  saveIndex?(): Uint8Array | undefined;
  /**
   * Loads what saveIndex gave for these very skills, in this order: true when loaded, as `build`
   * would have left it; false (nothing changed) for bytes it cannot use, and the caller builds.
   */
  loadIndex?(skills: readonly CatalogSkill[], saved: Uint8Array): boolean;
  /**
   * True while the ranker answers with less than it will once ready (the semantic ranker before
   * its vectors are computed): search_skills then says `warming` in its answer. Optional.
   */
  warming?(): boolean;
}
