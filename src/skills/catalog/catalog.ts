import { distance } from "fastest-levenshtein";
import { systemClock, type Clock, type ClockTimer } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { errorMessage, ToolInputError } from "../../kernel/errors.js";
import { escapeForDisplay } from "../display-text.js";
import type { Diagnostic, LoadOptions, SkillFileContent, SkillFileListing, CatalogSource, SourceSkill, SourceSnapshot } from "../types.js";
import { canSee, type Identity, type Visibility } from "./visibility.js";

/** A skill as the tools see it: what its source reported, with identity resolved across sources. */
export interface CatalogSkill extends Omit<SourceSkill, "rank"> {
  /**
   * What an agent calls it by: the plain name for the skill that wins its name, the qualified id
   * for every skill it shadows.
   */
  readonly id: string;
  /** Always reaches this exact skill: `source:name`, or `source:path` when the name repeats inside one source. */
  readonly qualifiedId: string;
  readonly source: string;
  /** True when a higher-precedence skill answers to this plain name. */
  readonly shadowed: boolean;
}

/** What one reload changed; listeners get every change, the first load included (all added). */
export interface CatalogChange {
  readonly added: readonly CatalogSkill[];
  readonly removed: readonly CatalogSkill[];
  /** Same qualified id, something else changed (its text, or its id when another skill took its name). */
  readonly updated: readonly CatalogSkill[];
}

export type CatalogListener = (change: CatalogChange) => void;

/** What the catalog holds of one source. */
interface SourceLoad {
  /** The last snapshot that loaded; undefined when none ever did. */
  readonly snapshot: SourceSnapshot | undefined;
  /** Why the latest load failed; undefined when it succeeded. */
  readonly failure: string | undefined;
}

/** One source as list and search answers report it. */
export interface SourceStatus {
  readonly source: string;
  /** ok; stale: serving its last good snapshot; failed: never loaded, serving nothing; loading: not loaded yet. */
  readonly state: "ok" | "stale" | "failed" | "loading";
  readonly skills: number;
  readonly error?: string;
}

/** Sources report bursts (an editor's save, a git checkout): reload once the burst is over. */
const WATCH_DEBOUNCE_MS = 200;

/** listingTtlMs for sources that announce their changes: a client that does not listen sees one within a minute. */
export const ANNOUNCED_TTL_MS = 60_000;
/** listingTtlMs when no source changes until a restart: an hour, so a restarted server is re-listed soon enough. */
export const STATIC_TTL_MS = 60 * 60_000;

interface CatalogState {
  readonly skills: readonly CatalogSkill[];
  readonly byName: ReadonlyMap<string, CatalogSkill>;
  readonly byQualifiedId: ReadonlyMap<string, CatalogSkill>;
  /**
   * Skills at the same path as a higher-ranked skill of their source (two roots of one source
   * holding one relative path), by qualified id, to the qualified id of that skill. Sources name
   * skills by path, so only that skill's files can be served.
   */
  readonly samePathAs: ReadonlyMap<string, string>;
  readonly diagnostics: readonly Diagnostic[];
}

const EMPTY: CatalogState = { skills: [], byName: new Map(), byQualifiedId: new Map(), samePathAs: new Map(), diagnostics: [] };

/** Close ids an unknown-skill message suggests at most. */
const MAX_SUGGESTIONS = 3;
/** Edit distance is quadratic in length: longer input is no typo of a skill id anyway. */
const MAX_SUGGESTED_FOR_CHARS = 100;
/** Agent input echoed in a message is cut to this many characters. */
const MAX_ECHOED_CHARS = 100;

/**
 * Every skill from every source, with one identity rule (docs/architecture.md, "Skill identity"):
 * sources rank in the order plugins contributed them, then by their own rank (root order), then
 * shallower folders, then path order. The first skill of each name answers to the plain name;
 * the others stay reachable by their qualified id.
 */
export class WholeCatalog {
  readonly #sources: CatalogSource[] = [];
  #state: CatalogState = EMPTY;
  /** Who may see each restricted source, by name (docs/security.md#per-team-visibility). */
  readonly #visibility = new Map<string, Visibility>();
  /** Set on a view (`for`): the catalog it shows part of, and the sources it shows. */
  #whole: WholeCatalog | undefined;
  #shown: ReadonlySet<string> | undefined;
  /** On the whole catalog: one view per set of sources shown, and its state for the current load. */
  readonly #views = new Map<string, WholeCatalog>();
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
  #loaded = false;
  /** While listeners hear a change no answer has gone out without (see announcingAwaitedChange). */
  #announcingAwaited = false;
  /** Set when serving or answering one command: how long answers wait for a load (see answerWithin). */
  #firstAnswerWaitMs: number | undefined;
  /** Past that bound, still wait for some source to have finished its first load (see answerWithin). */
  #waitForOneSource = false;
  #firstLoadStarted: number | undefined;
  /** Resolved when the first source finishes its first load, loaded or failed. */
  #oneSourceLoaded: () => void = () => undefined;
  readonly #oneSourceDone = new Promise<void>((resolve) => (this.#oneSourceLoaded = resolve));
  /** Diagnostics already logged: the same skipped skill is reported once per process, not per load. */
  readonly #reported = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** Add a source; with `visibleTo`, only callers it names see its skills (see `for`). */
  addSource(source: CatalogSource, options: { readonly visibleTo?: Visibility } = {}): void {
    if (this.#whole) throw new Error("sources are added to the whole catalog, not to a view of it");
    if (this.#sources.some((s) => s.name === source.name)) {
      throw new Error(`a skill source named "${source.name}" already exists; give one of them another name`);
    }
    this.#sources.push(source);
    if (options.visibleTo) this.#visibility.set(source.name, options.visibleTo);
  }

  get sources(): readonly CatalogSource[] {
    const shown = this.#shown;
    return shown ? this.#whole!.#sources.filter((source) => shown.has(source.name)) : this.#sources;
  }

  /**
   * The catalog as `identity` may see it: the same interface over the sources it may see, with
   * identity resolved among those alone, so a hidden skill shadows nothing, is suggested for
   * nothing and answers exactly as an unknown name. Every tool, resource, prompt, completion and
   * route reads through this (the `catalog` in its context, src/skills/catalog/catalog-view.ts); the
   * whole catalog itself when every source is visible.
   */
  for(identity: Identity | undefined): WholeCatalog {
    // A caller's view is never widened into another caller's: only the whole catalog scopes.
    if (this.#whole) throw new Error("a view of the catalog cannot be scoped again; ask the whole catalog (TOKENS.WholeCatalog)");
    const shown = this.#sources.filter((source) => canSee(this.#visibility.get(source.name), identity)).map((source) => source.name);
    if (shown.length === this.#sources.length) return this;
    const key = shown.join("\n");
    let view = this.#views.get(key);
    if (!view) {
      view = new WholeCatalog(this.logger);
      view.#whole = this;
      view.#shown = new Set(shown);
      this.#views.set(key, view);
    }
    return view;
  }

  /** True when some source is restricted: answers may then differ per caller, and are cached as private. */
  get restricted(): boolean {
    return (this.#whole ?? this).#visibility.size > 0;
  }

  /** The state this catalog answers from: the whole one's, or a view's, built once per load. */
  #current(): CatalogState {
    const whole = this.#whole;
    if (!whole) return this.#state;
    const key = [...this.#shown!].join("\n");
    let state = whole.#viewStates.get(key);
    if (!state) {
      const shown = whole.#sources.filter((source) => this.#shown!.has(source.name));
      state = buildState(
        shown.map((source) => ({ source: source.name, skills: whole.#loads.get(source.name)?.snapshot?.skills ?? [] })),
        shown.flatMap((source) => whole.#diagnosticsOf(source.name)),
      );
      whole.#viewStates.set(key, state);
    }
    return state;
  }

  /**
   * How long a client may reuse what the server lists (its `ttlMs`): the shortest any source
   * allows. A change a source announces reaches listening clients at once (list_changed), so
   * those allow ANNOUNCED_TTL_MS for clients that do not listen; sources that never change until
   * a restart allow STATIC_TTL_MS.
   */
  listingTtlMs(): number {
    if (this.#whole) return this.#whole.listingTtlMs();
    let ttl = STATIC_TTL_MS;
    for (const { freshness } of this.#sources) {
      if (freshness === "announced") ttl = Math.min(ttl, ANNOUNCED_TTL_MS);
      else if (freshness !== undefined) ttl = Math.min(ttl, Math.max(0, Math.floor(freshness.refreshMs)));
    }
    return ttl;
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
  refresh(sources?: string | readonly string[], signal: AbortSignal = new AbortController().signal, options: LoadOptions = {}): Promise<void> {
    if (this.#whole) return this.#whole.refresh(sources ?? [...this.#shown!], signal, options);
    const names = sources === undefined ? this.#sources.map((s) => s.name) : typeof sources === "string" ? [sources] : sources;
    for (const name of names) {
      this.#queued.add(name);
      if (options.revalidate) this.#revalidating.add(name);
    }
    this.#firstLoadStarted ??= performance.now();
    this.#next ??= (this.#running ?? Promise.resolve()).then(() => {
      const batch = this.#queued;
      const revalidate = this.#revalidating;
      this.#queued = new Set();
      this.#revalidating = new Set();
      this.#next = undefined;
      this.#running = this.#load(batch, revalidate, signal)
        .catch((error: unknown) => this.logger.error(`reloading the catalog failed: ${errorMessage(error)}`))
        .finally(() => {
          this.#running = undefined;
          this.#loaded = true;
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
    if (this.#whole) return this.#whole.ready();
    if (this.#loaded) return;
    this.#firstLoadStarted ??= performance.now();
    const load = this.#next ?? this.#running ?? this.refresh();
    if (this.#firstAnswerWaitMs === undefined) return load;
    await this.#bounded(load, this.#firstAnswerWaitMs - (performance.now() - this.#firstLoadStarted));
  }

  /**
   * Resolves when `load` (a refresh the caller waits for) does, or once the answerWithin bound has
   * passed from now, whichever comes first: asking for fresh skills never hangs on a slow source.
   */
  async within(load: Promise<void>): Promise<void> {
    const whole = this.#whole ?? this;
    if (whole.#firstAnswerWaitMs === undefined) return load;
    await whole.#bounded(load, whole.#firstAnswerWaitMs);
  }

  async #bounded(load: Promise<void>, ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([load, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
    clearTimeout(timer);
    if (this.#waitForOneSource && this.#loads.size === 0 && this.#sources.length > 0) await Promise.race([load, this.#oneSourceDone]);
  }

  /**
   * Answers wait at most `ms` for a slow source (a hanging catalog, retried for far longer): a
   * server's first answers from its first load starting, and a refresh asked for through `within`.
   * What answers then is every source but the slow ones (`loading()` names them), which join later
   * like any change. With `waitForOneSource`, past `ms` answers still wait until some source has
   * finished loading: a one-shot command has no later answer to give, and nothing to answer from
   * before that.
   */
  answerWithin(ms: number, { waitForOneSource = false }: { waitForOneSource?: boolean } = {}): void {
    if (this.#whole) throw new Error("answerWithin is set on the whole catalog, not on a view of it");
    this.#firstAnswerWaitMs = ms;
    this.#waitForOneSource = waitForOneSource;
  }

  /** The sources that answers must warn about: stale (serving a last good snapshot) or failed (serving nothing). */
  unavailable(): readonly SourceStatus[] {
    return this.status().filter((s) => s.state === "stale" || s.state === "failed");
  }

  /** The sources whose first load had not finished: answers given now lack their skills. */
  loading(): string[] {
    return this.status()
      .filter((s) => s.state === "loading")
      .map((s) => s.source);
  }

  /** How each source stands: loaded, stale (serving its last good snapshot) or failed (serving nothing). */
  status(): readonly SourceStatus[] {
    const whole = this.#whole ?? this;
    return this.sources.map((source) => {
      const load = whole.#loads.get(source.name);
      if (!load) return { source: source.name, state: "loading", skills: 0 };
      const skills = load.snapshot?.skills.length ?? 0;
      if (load.failure === undefined) return { source: source.name, state: "ok", skills };
      return { source: source.name, state: load.snapshot ? "stale" : "failed", skills, error: load.failure };
    });
  }

  list(): readonly CatalogSkill[] {
    return this.#current().skills;
  }

  /** Find a skill by plain name or qualified id. */
  get(idOrName: string): CatalogSkill | undefined {
    const state = this.#current();
    return state.byName.get(idOrName) ?? state.byQualifiedId.get(idOrName);
  }

  /**
   * Like `get`, for input from an agent: an unknown id is a ToolInputError naming up to 3 close
   * ids. With `source`, only that source's skills count, and `idOrName` may be a name, a path
   * or a qualified id within it.
   */
  resolve(idOrName: string, source?: string): CatalogSkill {
    const found = source === undefined ? this.get(idOrName) : this.#getInSource(idOrName, source);
    if (found) return found;
    const sources = this.sources;
    if (source !== undefined && !sources.some((s) => s.name === source)) {
      throw new ToolInputError(`no source named ${quote(source)}; sources: ${sources.map((s) => s.name).join(", ")}`);
    }
    const state = this.#current();
    // A skill the policy refused (an audit finding, a missing signature) is named with the reason.
    const refused = state.diagnostics.find(
      (d) => d.code === "policy-refused" && (source === undefined || d.source === source) && d.message.startsWith(`${idOrName}: `),
    );
    if (refused) throw new ToolInputError(`skill ${quote(idOrName)} of source ${quote(refused.source)} is ${refused.message.slice(idOrName.length + 2)}`);
    const inScope = state.skills.filter((skill) => source === undefined || skill.source === source);
    // Within a source, the name is what was asked for; across sources, the id an agent can use.
    const ids = inScope.flatMap((skill) =>
      source !== undefined ? [skill.name] : idOrName.includes(":") ? [skill.id, skill.qualifiedId] : [skill.id],
    );
    const close = suggest(idOrName, ids);
    const where = source === undefined ? "" : ` in source ${quote(source)}`;
    throw new ToolInputError(`no skill named ${quote(idOrName)}${where}${close.length > 0 ? `; did you mean: ${close.join(", ")}?` : ""}`);
  }

  /** A skill's SKILL.md, at most `maxBytes` of it, from its source. */
  async readDocument(skill: string | CatalogSkill, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent> {
    const { found, source } = await this.#route(skill);
    return source.readDocument(found.path, maxBytes, signal);
  }

  /** The files of a skill's folder other than its SKILL.md, sorted, at most `limit` of them. */
  async listFiles(skill: string | CatalogSkill, limit: number, signal?: AbortSignal): Promise<SkillFileListing> {
    const { found, source } = await this.#route(skill);
    return source.listFiles(found.path, limit, signal);
  }

  /**
   * One file of a skill's folder, at most `maxBytes` of it. The source refuses, with a
   * SkillFileError, anything but a regular file inside the folder; it does not check that the
   * path is one listFiles gives, which tools that take paths from agents do.
   */
  async readFile(skill: string | CatalogSkill, filePath: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent> {
    const { found, source } = await this.#route(skill);
    return source.readFile(found.path, filePath, maxBytes, signal);
  }

  #getInSource(idOrName: string, source: string): CatalogSkill | undefined {
    const state = this.#current();
    const qualified = state.byQualifiedId.get(idOrName.startsWith(`${source}:`) ? idOrName : `${source}:${idOrName}`);
    if (qualified?.source === source) return qualified;
    // A name that repeats within the source is qualified by path: the first by precedence wins.
    return state.skills.find((skill) => skill.source === source && skill.name === idOrName);
  }

  async #route(skill: string | CatalogSkill): Promise<{ found: CatalogSkill; source: CatalogSource }> {
    await this.ready();
    const found = typeof skill === "string" ? this.resolve(skill) : skill;
    const source = this.sources.find((s) => s.name === found.source);
    // A skill of a source this view hides answers as one that does not exist.
    if (!source && this.#whole) throw new ToolInputError(`no skill named ${quote(found.id)}`);
    if (!source) throw new Error(`skill ${quote(found.qualifiedId)} names source ${quote(found.source)}, which this catalog does not have`);
    const owner = this.#current().samePathAs.get(found.qualifiedId);
    if (owner !== undefined) {
      throw new ToolInputError(
        `the files of ${quote(found.qualifiedId)} cannot be served: another root of source ${quote(found.source)} ` +
          `holds a skill at the same path ${quote(found.path || ".")} (${owner}), and only that one's are`,
      );
    }
    return { found, source };
  }

  diagnostics(): readonly Diagnostic[] {
    return this.#current().diagnostics;
  }

  /** Hear about every change to the catalog (a view: to what it shows); returns a function that stops listening. */
  onChange(listener: CatalogListener): () => void {
    const shown = this.#shown;
    if (this.#whole && shown) {
      return this.#whole.onChange((change) => {
        const state = this.#current();
        const own = (skills: readonly CatalogSkill[]) =>
          skills.flatMap((skill) => (shown.has(skill.source) ? [state.byQualifiedId.get(skill.qualifiedId) ?? skill] : []));
        const seen = { added: own(change.added), removed: change.removed.filter((skill) => shown.has(skill.source)), updated: own(change.updated) };
        if (seen.added.length + seen.removed.length + seen.updated.length > 0) listener(seen);
      });
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reload a source whenever it reports a change, debounced per source, so an edit under one
   * root never reloads the others. Returns a function that stops every watcher; aborting
   * `signal` stops a reload in progress; `clock` times the debounce.
   */
  watch(signal: AbortSignal, clock: Clock = systemClock): () => void {
    if (this.#whole) throw new Error("the whole catalog is watched, not a view of it");
    const timers = new Map<string, ClockTimer>();
    const stops = this.#sources.flatMap((source) => {
      if (!source.watch) return [];
      const schedule = () => {
        clock.clearTimeout(timers.get(source.name));
        timers.set(source.name, clock.setTimeout(() => void this.refresh(source.name, signal), WATCH_DEBOUNCE_MS));
      };
      return [source.watch(schedule)];
    });
    return () => {
      for (const timer of timers.values()) clock.clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }

  #announce(change: CatalogChange, awaited: boolean): void {
    if (change.added.length + change.removed.length + change.updated.length === 0) return;
    this.#announcingAwaited = awaited;
    try {
      for (const listener of this.#listeners) {
        try {
          listener(change);
        } catch (error) {
          this.logger.error(`a catalog listener failed: ${errorMessage(error)}`);
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
    return (this.#whole ?? this).#announcingAwaited;
  }

  /** Whether answers given now would wait for the first load. */
  #answersWaitForFirstLoad(): boolean {
    if (this.#loaded) return false;
    if (this.#firstAnswerWaitMs === undefined || this.#firstLoadStarted === undefined) return true;
    return performance.now() - this.#firstLoadStarted < this.#firstAnswerWaitMs;
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
    this.logger.debug(
      `loaded ${reloading.length} of ${this.#sources.length} sources (${this.#state.skills.length} skills in all) in ${Math.round(performance.now() - started)} ms`,
    );
  }

  /** One source's load outcome into the catalog, and the change it makes to listeners. */
  #apply(name: string, outcome: { snapshot?: SourceSnapshot; failure?: string }): void {
    this.#oneSourceLoaded();
    const awaited = !this.#loads.has(name) && this.#answersWaitForFirstLoad();
    if (outcome.snapshot) {
      this.#loads.set(name, { snapshot: outcome.snapshot, failure: undefined });
    } else {
      const previous = this.#loads.get(name)?.snapshot;
      this.#loads.set(name, { snapshot: previous, failure: outcome.failure });
      if (previous) this.logger.warn(`source "${name}" failed to reload (${outcome.failure}); serving its last good snapshot`);
      else this.logger.warn(`source "${name}" failed to load: ${outcome.failure}`);
    }
    const previous = this.#state;
    this.#viewStates.clear();
    this.#state = buildState(
      this.#sources.map((source) => ({ source: source.name, skills: this.#loads.get(source.name)?.snapshot?.skills ?? [] })),
      this.#sources.flatMap((source) => this.#diagnosticsOf(source.name)),
    );
    this.#report(this.#state.diagnostics);
    this.#announce(diff(previous.skills, this.#state.skills), awaited);
  }

  #diagnosticsOf(source: string): Diagnostic[] {
    const load = this.#loads.get(source);
    if (!load) return [];
    const own = [...(load.snapshot?.diagnostics ?? [])];
    if (load.failure !== undefined) {
      own.push({
        severity: load.snapshot ? "warning" : "error",
        source,
        path: "",
        code: load.snapshot ? "source-stale" : "source-failed",
        message: load.snapshot
          ? `source "${source}" failed to reload and serves its last good snapshot: ${load.failure}`
          : `source "${source}" failed to load: ${load.failure}`,
      });
    }
    return own;
  }

  /**
   * Each skipped skill and each warning is logged once per process, at warn: `--log-level warn`
   * (a one-shot command's default) shows them, `error` hides them. Source failures are logged as
   * warnings where they happen.
   */
  #report(diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) {
      if (d.code === "source-failed" || d.code === "source-stale") continue;
      const where = `${d.source}:${d.path || "."}`;
      const key = `${where}\0${d.code}\0${d.message}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      if (d.severity === "error") this.logger.warn(`skipped ${where}: ${d.message}`);
      else this.logger.warn(`${where}: ${d.message}`);
    }
  }
}

/**
 * A source is a plugin, maybe a third party's: what it returns is checked before it can reach
 * identity resolution, so a malformed snapshot fails that source alone, as a thrown load does.
 */
function checkSnapshot(snapshot: SourceSnapshot): SourceSnapshot {
  if (!snapshot || !Array.isArray(snapshot.skills) || !Array.isArray(snapshot.diagnostics)) {
    throw new Error("load() did not return { skills: [], diagnostics: [] }");
  }
  snapshot.skills.forEach((skill, index) => {
    const valid =
      typeof skill?.name === "string" &&
      skill.name !== "" &&
      typeof skill.description === "string" &&
      typeof skill.path === "string" &&
      typeof skill.excerpt === "string" &&
      typeof skill.rank === "number" &&
      typeof skill.frontmatter === "object" &&
      skill.frontmatter !== null;
    if (!valid) throw new Error(`skills[${index}] is not a skill (name, description, path, excerpt, rank, frontmatter)`);
  });
  return snapshot;
}

/** Same as far as a listener can tell; frontmatter objects are compared by content only when not the same object. */
function same(a: CatalogSkill, b: CatalogSkill): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.description === b.description &&
    a.path === b.path &&
    a.excerpt === b.excerpt &&
    a.artifact?.digest === b.artifact?.digest &&
    (a.frontmatter === b.frontmatter || JSON.stringify(a.frontmatter) === JSON.stringify(b.frontmatter))
  );
}

function diff(before: readonly CatalogSkill[], after: readonly CatalogSkill[]): CatalogChange {
  const old = new Map(before.map((skill) => [skill.qualifiedId, skill]));
  const added: CatalogSkill[] = [];
  const updated: CatalogSkill[] = [];
  for (const skill of after) {
    const was = old.get(skill.qualifiedId);
    if (!was) added.push(skill);
    else if (!same(was, skill)) updated.push(skill);
    old.delete(skill.qualifiedId);
  }
  return { added, removed: [...old.values()], updated };
}

/** Input echoed in a message: quoted, escaped, and cut short if long. */
function quote(text: string): string {
  // JSON.stringify escapes C0 controls but not bidi overrides or zero-width marks; escapeForDisplay does.
  return escapeForDisplay(JSON.stringify(text.length > MAX_ECHOED_CHARS ? `${text.slice(0, MAX_ECHOED_CHARS)}…` : text));
}

/**
 * Up to 3 ids close to `wanted`, closest first: a typo of the whole id (a small edit distance), or
 * a typo of its leading words (`pdff` suggests `pdf-tools`, through "pdf"). Leading words are
 * cut at hyphens, so a short input never matches the first letters of an unrelated long id
 * (`nope` does not suggest `nodejs-backend-patterns`).
 */
function suggest(wanted: string, ids: readonly string[]): string[] {
  if (wanted.length > MAX_SUGGESTED_FOR_CHARS) return [];
  const query = wanted.toLowerCase();
  const typoBudget = Math.max(2, Math.floor(query.length / 3));
  const scored = new Map<string, number>();
  for (const id of ids) {
    const candidate = id.toLowerCase();
    const edits = distance(query, candidate);
    const wordEdits = query.length >= 3 ? Math.min(...leadingWords(candidate).map((words) => distance(query, words))) : Infinity;
    if (edits <= typoBudget || wordEdits <= 1) scored.set(id, Math.min(edits, wordEdits));
  }
  return [...scored]
    .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_SUGGESTIONS)
    .map(([id]) => id);
}

/** "pdf-tools-x" → ["pdf", "pdf-tools"]: every run of its leading hyphen-separated words, the whole id excluded. */
function leadingWords(id: string): string[] {
  const parts = id.split("-");
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join("-"));
}

function depth(path: string): number {
  return path === "" ? 0 : path.split("/").length;
}

function buildState(
  sources: readonly { source: string; skills: readonly SourceSkill[] }[],
  diagnostics: readonly Diagnostic[],
): CatalogState {
  // Each skill's depth taken once: in the comparator, it split two paths a comparison.
  const ordered = sources.flatMap(({ source, skills }) =>
    skills
      .map((skill) => ({ source, skill, depth: depth(skill.path) }))
      .sort((a, b) => a.skill.rank - b.skill.rank || a.depth - b.depth || (a.skill.path < b.skill.path ? -1 : a.skill.path > b.skill.path ? 1 : 0)),
  );

  const namesPerSource = new Map<string, Map<string, number>>();
  for (const { source, skill } of ordered) {
    const counts = namesPerSource.get(source) ?? new Map<string, number>();
    counts.set(skill.name, (counts.get(skill.name) ?? 0) + 1);
    namesPerSource.set(source, counts);
  }

  const byName = new Map<string, CatalogSkill>();
  const byQualifiedId = new Map<string, CatalogSkill>();
  const firstAtPath = new Map<string, string>();
  const samePathAs = new Map<string, string>();
  const skills: CatalogSkill[] = [];
  for (const { source, skill } of ordered) {
    const uniqueInSource = namesPerSource.get(source)!.get(skill.name) === 1;
    let qualifiedId = `${source}:${uniqueInSource ? skill.name : skill.path || "."}`;
    // Two roots of one source can hold the same relative path; keep every skill reachable anyway.
    const base = qualifiedId;
    for (let n = 2; byQualifiedId.has(qualifiedId); n++) qualifiedId = `${base}#${n}`;
    // A name holding ":" (not a valid skill name) could pass for another skill's qualified id, so
    // such a skill answers to its own qualified id only.
    const shadowed = byName.has(skill.name) || skill.name.includes(":");
    const entry: CatalogSkill = {
      id: shadowed ? qualifiedId : skill.name,
      qualifiedId,
      name: skill.name,
      description: skill.description,
      source,
      path: skill.path,
      frontmatter: skill.frontmatter,
      excerpt: skill.excerpt,
      shadowed,
      ...(skill.artifact ? { artifact: skill.artifact } : {}),
    };
    if (!shadowed) byName.set(skill.name, entry);
    byQualifiedId.set(qualifiedId, entry);
    skills.push(entry);
    const place = JSON.stringify([source, skill.path]);
    const first = firstAtPath.get(place);
    if (first === undefined) firstAtPath.set(place, qualifiedId);
    else samePathAs.set(qualifiedId, first);
  }
  return { skills, byName, byQualifiedId, samePathAs, diagnostics };
}
