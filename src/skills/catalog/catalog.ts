import { systemClock, type Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { errorMessage } from "../../kernel/errors.js";
import type {
  Diagnostic,
  LoadOptions,
  SkillFileContent,
  SkillFileListing,
  CatalogSource,
  SourceSnapshot,
} from "../types.js";
import { AnswerTiming } from "./answer-timing.js";
import { diff } from "./catalog-diff.js";
import { buildState, EMPTY_STATE, type CatalogState } from "./catalog-state.js";
import type { CatalogChange, CatalogListener, CatalogSkill, CatalogView, SourceStatus } from "./catalog-types.js";
import { ScopedCatalog } from "./catalog-view.js";
import { checkSnapshot } from "./check-snapshot.js";
import { DiagnosticsLog } from "./diagnostics-log.js";
import { SkillLookup } from "./skill-lookup.js";
import { loadingSources, sourceDiagnostics, sourceStatus, unavailableSources, type SourceLoad } from "./source-load.js";
import { canSee, type Identity, type Visibility } from "./visibility.js";
import { watchSources } from "./watch-sources.js";

/** Set once, by WholeCatalog's static block: the one function that reads a catalog's sources to make a view. */
let makeView: (catalog: WholeCatalog, identity: Identity | undefined) => CatalogView;

/**
 * The catalog as `identity` may see it: the same interface over the sources it may see, with
 * identity resolved among those alone, so a hidden skill shadows nothing, is suggested for nothing
 * and answers exactly as an unknown name. Always a view, never the whole catalog itself, even for
 * a caller who sees every source. The kernel hands one to every handler (the catalog plugin's
 * CallerCatalog), and embedders get one from `kernel.catalogFor`; it is kept off WholeCatalog's
 * public face so that there is one door for each.
 */
export function callerView(catalog: WholeCatalog, identity: Identity | undefined): CatalogView {
  return makeView(catalog, identity);
}

/**
 * Every skill from every source, with one identity rule (docs/sources.md, "Skill identity"):
 * sources rank in the order plugins contributed them, then by their own rank (root order), then
 * shallower folders, then path order. The first skill of each name answers to the plain name;
 * the others stay reachable by their qualified id. It loads the sources, keeps each one's last
 * snapshot and announces changes; a caller's view (`callerView`, catalog-view.ts) answers from it.
 * How long answers wait for loads is AnswerTiming's (answer-timing.ts).
 */
export class WholeCatalog {
  static {
    makeView = (catalog, identity) => catalog.#view(identity);
  }

  readonly #sources: CatalogSource[] = [];
  #state: CatalogState = EMPTY_STATE;
  readonly #lookup = new SkillLookup(this, () => this.#state, false);
  /** Who may see each restricted source, by name (docs/security.md#per-team-visibility). */
  readonly #visibility = new Map<string, Visibility>();
  /** One view per set of sources shown, and its state for the current load. */
  readonly #views = new Map<string, ScopedCatalog>();
  readonly #viewStates = new Map<string, CatalogState>();
  /** Each source's last load: its snapshot, and whether that snapshot is stale (the latest load failed). */
  readonly #loads = new Map<string, SourceLoad>();
  readonly #listeners = new Set<CatalogListener>();
  /** Sources asked for by refresh calls that no load has started on yet. */
  #queued = new Set<string>();
  /** Those of them to be revalidated with their remotes, whatever their TTL. */
  #revalidating = new Set<string>();
  /** The load the queued sources will go into; callers join it until it starts. */
  #next: Promise<void> | undefined;
  #running: Promise<void> | undefined;
  /** While listeners hear a change no answer has gone out without (see announcingAwaitedChange). */
  #announcingAwaited = false;
  readonly #timing: AnswerTiming;
  readonly #diagnosticsLog: DiagnosticsLog;
  readonly #logger: Logger;
  /** Times the answers' wait for loads, and the watchers' debounce. */
  readonly #clock: Clock;

  constructor(logger: Logger, clock: Clock = systemClock) {
    this.#logger = logger;
    this.#clock = clock;
    this.#timing = new AnswerTiming(clock);
    this.#diagnosticsLog = new DiagnosticsLog(logger);
  }

  /** Add a source; with `visibleTo`, only callers it names see its skills (see `callerView`). */
  addSource(source: CatalogSource, options: { readonly visibleTo?: Visibility } = {}): void {
    if (this.#sources.some((s) => s.name === source.name)) {
      throw new Error(`a skill source named "${source.name}" already exists; give one of them another name`);
    }
    this.#sources.push(source);
    this.#timing.track(source.name);
    if (options.visibleTo) this.#visibility.set(source.name, options.visibleTo);
  }

  /** Every source, in precedence order (the first wins a name clash). */
  get sources(): readonly CatalogSource[] {
    return this.#sources;
  }

  /** See callerView. A caller who may see every source answers from the whole catalog's state. */
  #view(identity: Identity | undefined): CatalogView {
    const shown = this.#sources
      .filter((source) => canSee(this.#visibility.get(source.name), identity))
      .map((source) => source.name);
    const key = shown.join("\n");
    let view = this.#views.get(key);
    if (!view) {
      const names = new Set(shown);
      const everything = shown.length === this.#sources.length;
      view = new ScopedCatalog(this, names, everything ? () => this.#state : () => this.#viewState(key, names));
      this.#views.set(key, view);
    }
    return view;
  }

  /** True when some source is restricted: answers may then differ per caller, and are cached as private. */
  get restricted(): boolean {
    return this.#visibility.size > 0;
  }

  /** A view's state: identity resolved among the sources it shows, built once per load. */
  #viewState(key: string, shown: ReadonlySet<string>): CatalogState {
    let state = this.#viewStates.get(key);
    if (!state) {
      const sources = this.#sources.filter((source) => shown.has(source.name));
      state = buildState(
        sources.map((source) => ({
          source: source.name,
          skills: this.#loads.get(source.name)?.snapshot?.skills ?? [],
        })),
        sources.flatMap((source) => sourceDiagnostics(source.name, this.#loads.get(source.name))),
      );
      this.#viewStates.set(key, state);
    }
    return state;
  }

  /**
   * Reload these sources (default: all), then resolve. The promise always covers a load that
   * starts after this call, so a caller that just changed a source sees the change; calls made
   * before that load starts share it. A source that fails keeps its last good snapshot, marked
   * stale, so one network error never empties it; one that never loaded serves nothing and is
   * reported by name (`status()`). Never rejects: callers fire and forget it (boot, the watcher),
   * and a bug here must cost a reload, not the process. `revalidate` asks remote sources now,
   * whatever their TTL (a branch pushed to a minute ago).
   */
  refresh(
    sources?: string | readonly string[],
    signal: AbortSignal = new AbortController().signal,
    options: LoadOptions = {},
  ): Promise<void> {
    const names =
      sources === undefined ? this.#sources.map((s) => s.name) : typeof sources === "string" ? [sources] : sources;
    for (const name of names) {
      this.#queued.add(name);
      if (options.revalidate) this.#revalidating.add(name);
    }
    this.#timing.loadStarted();
    this.#next ??= (this.#running ?? Promise.resolve()).then(() => {
      const batch = this.#queued;
      const revalidate = this.#revalidating;
      this.#queued = new Set();
      this.#revalidating = new Set();
      this.#next = undefined;
      this.#running = this.#load(batch, revalidate, signal)
        .catch((error: unknown) => this.#logger.error(`reloading the catalog failed: ${errorMessage(error)}`))
        .finally(() => {
          this.#running = undefined;
          this.#timing.loadFinished();
        });
      return this.#running;
    });
    return this.#next;
  }

  /**
   * Resolves once the first load has finished (starting it if nobody has), or, after
   * answerWithin, once it has run that long: sources apply as each finishes, so what answers
   * then is every source but the slow ones, which join later like any change.
   */
  async ready(): Promise<void> {
    if (this.#timing.loaded) return;
    return this.#timing.firstAnswer(this.#next ?? this.#running ?? this.refresh(), () => this.loading());
  }

  /**
   * Resolves when `load` (a refresh the caller waits for) does, or once the answerWithin bound has
   * passed from now, whichever comes first: asking for fresh skills never hangs on a slow source.
   */
  within(load: Promise<void>): Promise<void> {
    return this.#timing.within(load);
  }

  /**
   * Resolves once every source `which` picks has finished its first load (loaded or failed), or
   * once `ms` have passed since the first load started, whichever comes first: what the catalog
   * summary waits for before a connection's first server is built (local folders; a remote source
   * never holds the opening up). Starts the first load if nobody has.
   */
  async firstLoadOf(which: (source: CatalogSource) => boolean, ms: number): Promise<void> {
    const sources = this.#sources.filter(which).map((source) => source.name);
    if (sources.length === 0) return;
    if (!this.#timing.started) void this.refresh();
    await this.#timing.firstLoadOf(sources, ms);
  }

  /**
   * Answers wait at most `ms` for a slow source (a hanging catalog, retried for far longer): a
   * server's first answers from its first load starting, and a refresh asked for through `within`.
   * What answers then is every source but the slow ones (`loading()` names them), which join later
   * like any change. With `waitForOneSource`, past `ms` answers still wait until some source has
   * finished loading: a one-shot command has no later answer to give, and nothing to answer from
   * before that.
   */
  answerWithin(ms: number, options: { waitForOneSource?: boolean } = {}): void {
    this.#timing.answerWithin(ms, options);
  }

  /** The sources that answers must warn about: stale (serving a last good snapshot) or failed (serving nothing). */
  unavailable(): readonly SourceStatus[] {
    return unavailableSources(this.status());
  }

  /** The sources whose first load had not finished: answers given now lack their skills. */
  loading(): string[] {
    return loadingSources(this.status());
  }

  /**
   * The sources an answer lacked because ready() stopped waiting for them: what a one-shot command
   * warns about. Timing the command instead misses the bound's start, which the first ready() set.
   */
  answeredWithout(): string[] {
    return this.#timing.answeredWithout();
  }

  /** How each source stands: loaded, stale (serving its last good snapshot) or failed (serving nothing). */
  status(): readonly SourceStatus[] {
    return this.#sources.map((source) => sourceStatus(source.name, this.#loads.get(source.name)));
  }

  /** Every skill of every source, hidden ones too: by source precedence, then each source's own order. */
  list(): readonly CatalogSkill[] {
    return this.#lookup.list();
  }

  /** Find a skill by plain name or qualified id. */
  get(idOrName: string): CatalogSkill | undefined {
    return this.#lookup.get(idOrName);
  }

  /**
   * Like `get`, for input from an agent: an unknown id is a ToolInputError naming up to 3 close
   * ids. With `source`, only that source's skills count, and `idOrName` may be a name, a path
   * or a qualified id within it.
   */
  resolve(idOrName: string, source?: string): CatalogSkill {
    return this.#lookup.resolve(idOrName, source);
  }

  /** A skill's SKILL.md, at most `maxBytes` of it, from its source. */
  readDocument(skill: string | CatalogSkill, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent> {
    return this.#lookup.readDocument(skill, maxBytes, signal);
  }

  /** The files of a skill's folder other than its SKILL.md, sorted, at most `limit` of them. */
  listFiles(skill: string | CatalogSkill, limit: number, signal?: AbortSignal): Promise<SkillFileListing> {
    return this.#lookup.listFiles(skill, limit, signal);
  }

  /**
   * One file of a skill's folder, at most `maxBytes` of it. The source refuses, with a
   * SkillFileError, anything but a regular file inside the folder; it does not check that the
   * path is one listFiles gives, which tools that take paths from agents do.
   */
  readFile(
    skill: string | CatalogSkill,
    filePath: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<SkillFileContent> {
    return this.#lookup.readFile(skill, filePath, maxBytes, signal);
  }

  /** What the snapshots served report (skills skipped or loaded with warnings), and each source whose latest load failed. */
  diagnostics(): readonly Diagnostic[] {
    return this.#lookup.diagnostics();
  }

  /** Hear about every change to the catalog (a view: to what it shows); returns a function that stops listening. */
  onChange(listener: CatalogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reload a source whenever it reports a change, debounced per source, so an edit under one
   * root never reloads the others. Returns a function that stops every watcher; aborting
   * `signal` stops a reload in progress; the catalog's clock times the debounce.
   */
  watch(signal: AbortSignal): () => void {
    return watchSources(this.#sources, (source) => void this.refresh(source, signal), this.#clock);
  }

  #announce(change: CatalogChange, awaited: boolean): void {
    if (change.added.length + change.removed.length + change.updated.length === 0) return;
    this.#announcingAwaited = awaited;
    try {
      for (const listener of this.#listeners) {
        try {
          listener(change);
        } catch (error) {
          this.#logger.error(`a catalog listener failed: ${errorMessage(error)}`);
        }
      }
    } finally {
      this.#announcingAwaited = false;
    }
  }

  /**
   * Whether the change listeners are hearing now is one every answer so far waited for: a source's
   * first load, applied while answers still wait for it (before the answerWithin bound). No client
   * has seen the catalog without it, so none needs telling that a list changed.
   */
  announcingAwaitedChange(): boolean {
    return this.#announcingAwaited;
  }

  /** Loads the sources at once; each applies as it finishes, so none waits for a slower one. */
  async #load(batch: ReadonlySet<string>, revalidate: ReadonlySet<string>, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const reloading = this.#sources.filter((source) => batch.has(source.name));
    await Promise.all(
      reloading.map(async (source) => {
        let outcome: { snapshot?: SourceSnapshot; failure?: string };
        try {
          const options = revalidate.has(source.name) ? { revalidate: true } : undefined;
          outcome = { snapshot: checkSnapshot(await (options ? source.load(signal, options) : source.load(signal))) };
        } catch (error) {
          outcome = { failure: errorMessage(error) };
        }
        // A load cut short by shutdown is not a source failure: keep what was served and say nothing.
        if (!signal.aborted) this.#apply(source.name, outcome);
      }),
    );
    this.#logger.debug(
      `loaded ${reloading.length} of ${this.#sources.length} sources (${this.#state.skills.length} skill${this.#state.skills.length === 1 ? "" : "s"} in all) in ${Math.round(performance.now() - started)} ms`,
    );
  }

  /** One source's load outcome into the catalog, and the change it makes to listeners. */
  #apply(name: string, outcome: { snapshot?: SourceSnapshot; failure?: string }): void {
    const awaited = !this.#loads.has(name) && this.#timing.answersWait();
    if (outcome.snapshot) {
      this.#loads.set(name, { snapshot: outcome.snapshot, failure: undefined });
    } else {
      const previous = this.#loads.get(name)?.snapshot;
      this.#loads.set(name, { snapshot: previous, failure: outcome.failure });
      if (previous)
        this.#logger.warn(`source "${name}" failed to reload (${outcome.failure}); serving its last good snapshot`);
      else this.#logger.warn(`source "${name}" failed to load: ${outcome.failure}`);
    }
    const previous = this.#state;
    this.#viewStates.clear();
    this.#state = buildState(
      this.#sources.map((source) => ({
        source: source.name,
        skills: this.#loads.get(source.name)?.snapshot?.skills ?? [],
      })),
      this.#sources.flatMap((source) => sourceDiagnostics(source.name, this.#loads.get(source.name))),
    );
    this.#diagnosticsLog.report(this.#state.diagnostics);
    this.#announce(diff(previous.skills, this.#state.skills), awaited);
    this.#timing.sourceSettled(name);
  }
}
