import type { Clock, ClockTimer } from "../../kernel/clock.js";

/**
 * How long answers wait for the catalog's loads: a served kernel's first answers at most the
 * bound `answerWithin` sets from the first load's start, a refresh asked for through `within` at
 * most the same bound from the call; a one-shot command, past the bound, until some source has
 * loaded. WholeCatalog tells it when loads start and sources finish, and asks it how long to wait.
 */
export class AnswerTiming {
  readonly #clock: Clock;
  /** How long answers wait for a load; undefined: until it finishes. */
  #waitMs: number | undefined;
  /** Past `#waitMs`, still wait for some source to have finished its first load. */
  #waitForOneSource = false;
  #firstLoadStarted: number | undefined;
  #loaded = false;
  #oneSourceSettled = false;
  #settleOneSource: () => void = () => undefined;
  readonly #oneSourceDone = new Promise<void>((resolve) => (this.#settleOneSource = resolve));
  /** Per source, resolved when its first load has finished, loaded or failed. */
  readonly #firstLoads = new Map<string, { readonly done: Promise<void>; readonly resolve: () => void }>();
  /** The sources some answer went out without: still loading when `firstAnswer` stopped waiting. */
  readonly #answeredWithout = new Set<string>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Answers wait at most `ms` (see WholeCatalog.answerWithin). */
  answerWithin(ms: number, { waitForOneSource = false }: { waitForOneSource?: boolean } = {}): void {
    this.#waitMs = ms;
    this.#waitForOneSource = waitForOneSource;
  }

  /** A source whose first load `firstLoadOf` may wait for. */
  track(source: string): void {
    let resolve: () => void = () => undefined;
    const done = new Promise<void>((settle) => (resolve = settle));
    this.#firstLoads.set(source, { done, resolve });
  }

  /** The first load has started: the bound on first answers counts from the first call. */
  loadStarted(): void {
    this.#firstLoadStarted ??= this.#clock.now();
  }

  /** Whether a load has started. */
  get started(): boolean {
    return this.#firstLoadStarted !== undefined;
  }

  /** A load has finished: answers wait for none from now on. */
  loadFinished(): void {
    this.#loaded = true;
  }

  /** Whether a load has finished. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /** One source's load has finished, loaded or failed. */
  sourceSettled(source: string): void {
    this.#oneSourceSettled = true;
    this.#settleOneSource();
    this.#firstLoads.get(source)?.resolve();
  }

  /** Whether answers given now would wait for the first load: before any load finished, within the bound. */
  answersWait(): boolean {
    if (this.#loaded) return false;
    if (this.#waitMs === undefined || this.#firstLoadStarted === undefined) return true;
    return this.#clock.now() - this.#firstLoadStarted < this.#waitMs;
  }

  /**
   * Resolves when `load` (the first) does, or once the bound has passed since it started; then
   * notes the sources still `loading()` as ones an answer went without.
   */
  async firstAnswer(load: Promise<void>, loading: () => readonly string[]): Promise<void> {
    if (this.#waitMs === undefined) return load;
    this.loadStarted();
    await this.#bounded(load, this.#waitMs - (this.#clock.now() - this.#firstLoadStarted!));
    for (const source of loading()) this.#answeredWithout.add(source);
  }

  /** Resolves when `load` does, or once the bound has passed from now, whichever comes first. */
  async within(load: Promise<void>): Promise<void> {
    if (this.#waitMs === undefined) return load;
    await this.#bounded(load, this.#waitMs);
  }

  /**
   * Resolves once every source named has finished its first load, or once `ms` have passed since
   * the first load started (from now, when none has), whichever comes first.
   */
  async firstLoadOf(sources: readonly string[], ms: number): Promise<void> {
    const loads = sources.flatMap((source) => this.#firstLoads.get(source)?.done ?? []);
    const started = this.#firstLoadStarted ?? this.#clock.now();
    await raceTimer(Promise.all(loads), ms - (this.#clock.now() - started), this.#clock);
  }

  /** The sources an answer lacked because `firstAnswer` stopped waiting for them. */
  answeredWithout(): string[] {
    return [...this.#answeredWithout];
  }

  async #bounded(load: Promise<void>, ms: number): Promise<void> {
    await raceTimer(load, ms, this.#clock);
    if (this.#waitForOneSource && !this.#oneSourceSettled) await Promise.race([load, this.#oneSourceDone]);
  }
}

/** Resolves when `promise` does, or after `ms` (at once when it is not positive), whichever is first. */
async function raceTimer(promise: Promise<unknown>, ms: number, clock: Clock): Promise<void> {
  let timer: ClockTimer;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, Math.max(0, ms))))]);
  clock.clearTimeout(timer);
}
