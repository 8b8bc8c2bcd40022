import type {
  CatalogSource,
  Diagnostic,
  LoadOptions,
  SkillFileContent,
  SkillFileListing,
  SourceSkill,
} from "../types.js";

/** A skill as the tools see it: what its source reported, with identity resolved across sources. */
export interface CatalogSkill extends Omit<SourceSkill, "rank"> {
  /**
   * What an agent calls it by: the plain name for the skill that wins its name, the qualified id
   * for every skill it shadows.
   */
  readonly id: string;
  /** Always reaches this exact skill: `source:name`, or `source:path` when the name repeats inside one source. */
  readonly qualifiedId: string;
  /** The name of the source that serves it. */
  readonly source: string;
  /** True when a higher-precedence skill answers to this plain name. */
  readonly shadowed: boolean;
}

/** What one reload changed; listeners get every change, the first load included (all added). */
export interface CatalogChange {
  /** Skills whose qualified id is new. */
  readonly added: readonly CatalogSkill[];
  /** Skills whose qualified id is gone. */
  readonly removed: readonly CatalogSkill[];
  /** Same qualified id, something else changed (its text, or its id when another skill took its name). */
  readonly updated: readonly CatalogSkill[];
}

/** Told of each CatalogChange, once the catalog has reloaded (`onChange`): a ranker or an index kept current. */
export type CatalogListener = (change: CatalogChange) => void;

/** One source as list and search answers report it. */
export interface SourceStatus {
  /** The source's name. */
  readonly source: string;
  /** ok; stale: serving its last good snapshot; failed: never loaded, serving nothing; loading: not loaded yet. */
  readonly state: "ok" | "stale" | "failed" | "loading";
  /** How many skills the source serves now (its last good snapshot's, when stale). */
  readonly skills: number;
  /** Why the latest load failed, when state is stale or failed. */
  readonly error?: string;
}

/**
 * The skill catalog as one caller may see it: what every tool, resource, prompt, instructions
 * section and HTTP route gets as `catalog`, already scoped to its caller (embedders get one from
 * `kernel.catalogFor(identity)`). It shows the sources `visibleTo` admits the caller to, with
 * identity resolved among those alone, so a hidden skill shadows nothing, is suggested for
 * nothing and answers exactly as an unknown name. It cannot be widened: nothing reachable from a
 * view leads to the whole catalog (`TOKENS.WholeCatalog`, a service a plugin must declare as such).
 */
export interface CatalogView {
  /** The sources this caller may see, in precedence order (the first wins a name clash). */
  readonly sources: readonly CatalogSource[];
  /**
   * True when some source is visible to some callers only: answers may then differ per caller,
   * so none may sit in a shared cache (even an anonymous caller's is a filtered one).
   */
  readonly restricted: boolean;
  /** Every skill this caller may see, shadowed ones too: by source precedence, then each source's own order. */
  list(): readonly CatalogSkill[];
  /** The skill a plain name or qualified id names, or undefined. */
  get(idOrName: string): CatalogSkill | undefined;
  /**
   * Like `get`, for input from an agent: an unknown id is a ToolInputError naming up to 3 close
   * ids. With `source`, only that source's skills count, and `idOrName` may be a name, a path or
   * a qualified id within it.
   */
  resolve(idOrName: string, source?: string): CatalogSkill;
  /** A skill's SKILL.md, at most `maxBytes` of it, from its source. */
  readDocument(skill: string | CatalogSkill, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  /** The files of a skill's folder other than its SKILL.md, sorted, at most `limit` of them. */
  listFiles(skill: string | CatalogSkill, limit: number, signal?: AbortSignal): Promise<SkillFileListing>;
  /**
   * One file of a skill's folder, at most `maxBytes` of it. The source refuses, with a
   * SkillFileError, anything but a regular file inside the folder; it does not check that the
   * path is one listFiles gives, which a tool taking paths from agents must.
   */
  readFile(
    skill: string | CatalogSkill,
    filePath: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<SkillFileContent>;
  /** What the snapshots served report (skills skipped or loaded with warnings), and each source whose latest load failed. */
  diagnostics(): readonly Diagnostic[];
  /** How each source stands: loading, loaded, stale (serving its last good snapshot) or failed (serving nothing). */
  status(): readonly SourceStatus[];
  /** The sources answers must warn about: stale or failed. */
  unavailable(): readonly SourceStatus[];
  /** The names of the sources whose first load has not finished: answers given now lack their skills. */
  loading(): readonly string[];
  /**
   * Resolves once the catalog's first load has finished, or once a served kernel's bound on
   * waiting for it has passed (a slow source then joins later, like any change): await it before
   * answering from the catalog. Never rejects.
   */
  ready(): Promise<void>;
  /**
   * Reloads these sources (default: every source this view shows; a source it does not show is
   * no source), then resolves; never rejects. The promise covers a load that starts after the
   * call, so a caller that just changed a source sees the change. `revalidate` asks remote sources
   * now, whatever their TTL.
   */
  refresh(sources?: string | readonly string[], signal?: AbortSignal, options?: LoadOptions): Promise<void>;
  /**
   * Resolves when `load` (a `refresh` the caller waits for) does, or once the served kernel's
   * bound on waiting has passed, whichever comes first: asking for fresh skills never hangs on a
   * slow source.
   */
  within(load: Promise<void>): Promise<void>;
  /**
   * Hears every change a load makes to the skills this view shows, with the ids they have here
   * (the first load adds every skill). Returns a function that stops listening.
   */
  onChange(listener: CatalogListener): () => void;
}
