import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { MetricsRecorder } from "../../../kernel/request-observer.js";
import type { HandlerCaller } from "../../../kernel/types.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import type { SourceVisibility } from "../../../skills/catalog/visibility.js";
import { skillKey, type SkillKey } from "../../../skills/usage/buckets.js";
import { missText } from "../../../skills/usage/query-text.js";
import { inRankOrder, readReport, usesOf } from "../../../skills/usage/read-report.js";
import type { SkillUsage, UsageCounter, UsageQuery, UsageReport } from "../../../skills/usage/report.js";
import type { UsageStore } from "../../../skills/usage/store.js";
import { UsageTally, writePending } from "../../../skills/usage/tally.js";
import { callerId, groupsOf } from "./groups.js";
import type { UsageNotes } from "./observer.js";

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
  /** Every skill, for the ranking behind `mostUsed`. */
  readonly whole?: CatalogView;
  /** How old the ranking may get before `mostUsed` has it read again, in the background. */
  readonly rankEveryMs?: number;
  readonly metrics: MetricsRecorder | undefined;
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * The usage plugin's working part: notes from the observer go into a tally in memory (nothing
 * that could slow or fail an answer), written to the store in the background by `flush`, one
 * write at a time; a write that fails or outlasts its timeout loses its figures and is said once
 * per outage. Reports flush first, then read the store.
 */
export class UsageService implements SkillUsage, UsageNotes {
  readonly #tally: UsageTally;
  /** The write under way, until the store has answered it (even past its timeout). */
  #busy: Promise<void> | undefined;
  #failing = false;
  #lost = 0;
  /** Skill keys by rank, most used first, from the last ranking. */
  #ranking: ReadonlyMap<string, number> = new Map();
  #rankedAt = Number.NEGATIVE_INFINITY;
  #rankingUnderWay: Promise<void> | undefined;
  #ranked = new WeakMap<readonly CatalogSkill[], { ranking: ReadonlyMap<string, number>; skills: CatalogSkill[] }>();

  constructor(private readonly options: UsageServiceOptions) {
    this.#tally = new UsageTally(options);
  }

  get operatorScope(): string {
    return this.options.operatorScope;
  }

  get retentionDays(): number {
    return this.options.retentionDays;
  }

  /** Figures lost so far: dropped at the tally's bounds, or in writes that failed. */
  get lost(): number {
    return this.#lost + this.#tally.dropped;
  }

  used(skill: CatalogSkill, use: "reads" | "fetches" | "installs", caller: HandlerCaller): void {
    this.#count(skill, [use], caller);
  }

  searched(results: readonly CatalogSkill[], missed: string | undefined, caller: HandlerCaller): void {
    results.forEach((skill, rank) =>
      this.#count(skill, rank === 0 ? ["searchHits", "firstHits"] : ["searchHits"], caller),
    );
    if (missed === undefined) return;
    this.options.metrics?.searchMissed?.();
    const text = this.options.recordQueries ? missText(missed) : "";
    // With recordQueries off a miss is a total alone: its text is what would be kept.
    if (text === "") return;
    const groups = groupsOf(this.options.visibilities(), caller.identity);
    this.#tally.miss(text, callerId(caller.identity), groups, this.options.now());
  }

  installed(skill: SkillKey): void {
    this.#count(skill, ["installs"], {});
  }

  #count(skill: SkillKey, counters: readonly UsageCounter[], caller: Pick<HandlerCaller, "identity">): void {
    const groups = groupsOf(this.options.visibilities(), caller.identity);
    this.#tally.count(skill, counters, groups, this.options.now());
    for (const counter of counters) this.options.metrics?.skillUsed?.(skill, counter);
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
      // Still unanswered: the figures wait in the tally for the store to answer.
      if (this.#busy === under) return;
    }
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

  /** Ranks every skill used in `rankDays` from the store, for `mostUsed`; one ranking at a time. */
  rank(): Promise<void> {
    const whole = this.options.whole;
    if (!whole) return Promise.resolve();
    this.#rankedAt = this.options.now();
    this.#rankingUnderWay ??= this.report({ days: this.options.rankDays, catalog: whole, unserved: true })
      .then((report) => {
        const used = report.skills.filter((row) => usesOf(row) + row.searchHits > 0);
        this.#ranking = new Map(used.map((row, rank) => [skillKey(row), rank]));
      })
      .catch((error: unknown) => this.options.logger.debug(`cannot rank the most used skills: ${errorMessage(error)}`))
      .finally(() => {
        this.#rankingUnderWay = undefined;
      });
    return this.#rankingUnderWay;
  }

  mostUsed(catalog: CatalogView): readonly CatalogSkill[] {
    // Read again in the background once old: the answer asking never waits for the store.
    if (this.options.now() - this.#rankedAt >= (this.options.rankEveryMs ?? 0)) void this.rank();
    const listing = catalog.list();
    const cached = this.#ranked.get(listing);
    if (cached?.ranking === this.#ranking) return cached.skills;
    const skills = Object.freeze(inRankOrder(listing, this.#ranking)) as CatalogSkill[];
    this.#ranked.set(listing, { ranking: this.#ranking, skills });
    return skills;
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
