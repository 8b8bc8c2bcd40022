import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { MetricsRecorder } from "../../../kernel/request-observer.js";
import type { HandlerCaller, Identity } from "../../../kernel/types.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { AreaSkill } from "../../../skills/catalog/summary-areas.js";
import type { SourceVisibility } from "../../../skills/catalog/visibility.js";
import { skillKey, type SkillKey } from "../../../skills/usage/buckets.js";
import { missText } from "../../../skills/usage/query-text.js";
import { readReport, readUses } from "../../../skills/usage/read-report.js";
import type { SkillUsage, UsageCounter, UsageQuery, UsageReport } from "../../../skills/usage/report.js";
import type { UsageStore } from "../../../skills/usage/store.js";
import { UsageTally, writePending } from "../../../skills/usage/tally.js";
import { callerId, groupsOf } from "./groups.js";
import type { UsageNotes } from "./observer.js";

/** What an answer did with the skills it names: "search" counts search hits, the first a first hit too. */
type Use = "search" | "reads" | "fetches" | "installs";

/** A write unanswered for this many timeouts is given up on: the next one goes ahead. */
const STUCK_WRITES = 3;

/** Miss texts and caller ids remembered at most, each: past it they are made afresh. */
const REMEMBERED = 1_000;

const FIRST: readonly UsageCounter[] = ["searchHits", "firstHits"];
const FOUND: readonly UsageCounter[] = ["searchHits"];

export interface UsageServiceOptions {
  readonly store: UsageStore;
  /** Resolves once the store can be read (a file being loaded). */
  readonly opened: Promise<void>;
  readonly retentionDays: number;
  readonly recordQueries: boolean;
  readonly operatorScope: string;
  readonly rankDays: number;
  readonly maxMissesPerDay: number;
  readonly maxPendingFields: number;
  /** How long one write of the figures, or a report's read, may take before it is given up. */
  readonly writeTimeoutMs: number;
  readonly visibilities: () => readonly SourceVisibility[];
  /** How old the uses may get before `popularity` has them read again, in the background. */
  readonly rankEveryMs?: number;
  readonly metrics: MetricsRecorder | undefined;
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * The usage plugin's working part: an answer only queues a note (nothing that could slow or fail
 * it); `flush`, in the background, works the notes into a tally and writes it to the store, one
 * write at a time; a write that fails or outlasts its timeout loses its figures and is said once
 * per outage. Reports flush first, then read the store.
 */
export class UsageService implements SkillUsage, UsageNotes {
  readonly #tally: UsageTally;
  /** Answers to work out at the next flush. */
  #queue: (() => void)[] = [];
  #texts = new Map<string, string>();
  #callers = new Map<string, string>();
  #dropped = 0;
  /** The write under way, until the store has answered it (even past its timeout). */
  #busy: Promise<void> | undefined;
  #busySince = 0;
  #failing = false;
  #lost = 0;
  /** Uses of each skill used in `rankDays`, by skill key, from the last ranking. */
  #uses: ReadonlyMap<string, number> = new Map();
  #rankedAt = Number.NEGATIVE_INFINITY;
  #rankingUnderWay: Promise<void> | undefined;

  constructor(private readonly options: UsageServiceOptions) {
    this.#tally = new UsageTally(options);
  }

  get operatorScope(): string {
    return this.options.operatorScope;
  }

  get retentionDays(): number {
    return this.options.retentionDays;
  }

  /** Figures lost so far: dropped at the bounds, or in writes that failed. */
  get lost(): number {
    return this.#lost + this.#dropped + this.#tally.dropped;
  }

  later(interpret: () => void): void {
    if (this.#queue.length >= this.options.maxPendingFields) this.#dropped++;
    else this.#queue.push(interpret);
  }

  installed(skill: SkillKey): void {
    const at = this.options.now();
    this.later(() => this.#count([skill], "installs", undefined, at));
  }

  used(skill: CatalogSkill, use: "reads" | "fetches" | "installs", caller: HandlerCaller): void {
    this.#count([skill], use, caller.identity, this.options.now());
  }

  searched(results: readonly CatalogSkill[], missed: string | undefined, caller: HandlerCaller): void {
    const at = this.options.now();
    const groups = this.#count(results, "search", caller.identity, at);
    if (missed === undefined) return;
    this.options.metrics?.searchMissed?.();
    // With recordQueries off a miss is a total alone: its text is what would be kept.
    const text = this.options.recordQueries ? this.#missText(missed) : "";
    if (text !== "") this.#tally.miss(text, this.#callerId(caller.identity), groups, at);
  }

  /** Counts one answer's skills in the tally, and for metrics; the caller's groups, for a miss beside. */
  #count(skills: readonly SkillKey[], use: Use, identity: Identity | undefined, at: number): readonly string[] {
    const groups = groupsOf(this.options.visibilities(), identity);
    const metrics = this.options.metrics;
    skills.forEach((skill, rank) => {
      const counters: readonly UsageCounter[] = use !== "search" ? [use] : rank === 0 ? FIRST : FOUND;
      this.#tally.count(skill, counters, groups, at);
      for (const counter of counters) metrics?.skillUsed?.(skill, counter);
    });
    return groups;
  }

  /** The queued answers into the tally (their miss texts masked here, before anything is kept). */
  #drain(): void {
    const queued = this.#queue;
    this.#queue = [];
    for (const interpret of queued) {
      try {
        interpret();
      } catch (error) {
        this.options.logger.error(`cannot count an answer's usage: ${errorMessage(error)}`);
      }
    }
  }

  /** missText, remembered for the queries asked again: masking costs more than a lookup. */
  #missText(query: string): string {
    let text = this.#texts.get(query);
    if (text === undefined) {
      if (this.#texts.size >= REMEMBERED) this.#texts.clear();
      this.#texts.set(query, (text = missText(query)));
    }
    return text;
  }

  #callerId(identity: Identity | undefined): string {
    const subject = identity?.subject;
    if (subject === undefined) return callerId(undefined);
    let id = this.#callers.get(subject);
    if (id === undefined) {
      if (this.#callers.size >= REMEMBERED) this.#callers.clear();
      this.#callers.set(subject, (id = callerId(identity)));
    }
    return id;
  }

  /**
   * Writes what the tally holds, one write at a time. A write the store has not answered within
   * `writeTimeoutMs` is given up on (its figures counted as lost); until the store answers it for
   * good, later flushes leave their figures in the tally, so a hung store never has more than one
   * write waiting on it.
   */
  async flush(): Promise<void> {
    const under = this.#busy;
    if (under !== undefined) {
      await withTimeout(under, this.options.writeTimeoutMs).catch(() => undefined);
      if (this.#busy === under) {
        // Still unanswered: the figures wait in the tally for the store to answer, unless it
        // never will (a connection lost with the write on it), which is given up on in the end.
        if (this.options.now() - this.#busySince < STUCK_WRITES * this.options.writeTimeoutMs) return;
        this.#busy = undefined;
      }
    }
    this.#drain();
    if (this.#tally.empty) return;
    const pending = this.#tally.take();
    const write = (async () => {
      await this.options.opened;
      await writePending(this.options.store, pending, this.options.retentionDays);
    })();
    const busy = write.then(
      () => undefined,
      () => undefined,
    );
    this.#busy = busy;
    this.#busySince = this.options.now();
    void busy.then(() => {
      if (this.#busy === busy) this.#busy = undefined;
    });
    try {
      await withTimeout(write, this.options.writeTimeoutMs);
      if (this.#failing) this.options.logger.info(`usage figures are written to ${this.options.store.target} again`);
      this.#failing = false;
    } catch (error) {
      this.#lost += countOf(pending);
      if (!this.#failing)
        this.options.logger.warn(
          `cannot write usage figures to ${this.options.store.target} (${errorMessage(error)}); they are lost until it answers`,
        );
      this.#failing = true;
    }
  }

  async report(query: UsageQuery): Promise<UsageReport> {
    await this.flush();
    await this.options.opened;
    return withTimeout(readReport(this.options.store, query, this.options.now()), this.options.writeTimeoutMs);
  }

  /** The uses of `rankDays`, written ones included, as `report` reads them. */
  async #readUses(): Promise<Map<string, number>> {
    await this.flush();
    await this.options.opened;
    return withTimeout(
      readUses(this.options.store, this.options.rankDays, this.options.now()),
      this.options.writeTimeoutMs,
    );
  }

  /** Reads every used skill's uses in `rankDays` from the store, for `popularity`; one ranking at a time. */
  rank(): Promise<void> {
    this.#rankedAt = this.options.now();
    this.#rankingUnderWay ??= this.#readUses()
      .then((uses) => {
        this.#uses = uses;
      })
      .catch((error: unknown) => this.options.logger.debug(`cannot rank the most used skills: ${errorMessage(error)}`))
      .finally(() => {
        this.#rankingUnderWay = undefined;
      });
    return this.#rankingUnderWay;
  }

  popularity(skill: AreaSkill): number {
    // Read again in the background once old: the answer asking never waits for the store.
    if (this.options.now() - this.#rankedAt >= (this.options.rankEveryMs ?? 0)) void this.rank();
    // Asked of every skill of the catalog at each summary: no key is made while no skill is used.
    if (this.#uses.size === 0 || skill.source === undefined || skill.name === undefined) return 0;
    return this.#uses.get(skillKey({ source: skill.source, name: skill.name })) ?? 0;
  }
}

function countOf(pending: ReturnType<UsageTally["take"]>): number {
  let fields = 0;
  for (const kind of [pending.counters, pending.latest, pending.distinct])
    for (const { fields: held } of kind.values()) fields += held.size;
  return fields;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
