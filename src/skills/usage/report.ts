import type { AreaSkill } from "../catalog/summary-areas.js";
import type { CatalogView } from "../catalog/catalog-view.js";

/** A use of a skill that is counted, in the report's words (SkillUsageFigures has one field each). */
export type UsageCounter = "searchHits" | "firstHits" | "reads" | "fetches" | "installs";

/** One skill's figures over the report's days. */
export interface SkillUsageFigures {
  /** The skill's name. */
  readonly name: string;
  /** The name of the source that serves (or served) it. */
  readonly source: string;
  /** How often a search returned it. */
  readonly searchHits: number;
  /** How often a search ranked it first. */
  readonly firstHits: number;
  /** read_skill, its SKILL.md resource, skills/get, its prompt. */
  readonly reads: number;
  /** fetch_skill_files, and its other files read as resources. */
  readonly fetches: number;
  /** install_skill, and the CLI's install and add. */
  readonly installs: number;
  /** ISO time of its last use in these days; null when none. */
  readonly lastUsed: string | null;
}

/** A search whose best result was weak, or that found nothing, by its normalised text. */
export interface MissFigures {
  /** The query as counted: lower-cased, spacing collapsed, anything like a secret masked. */
  readonly query: string;
  /** How often it was asked in the report's days. */
  readonly count: number;
  /** Distinct callers who asked it (by OAuth subject; callers with no identity count as one). */
  readonly callers: number;
  /** ISO time it was last asked. */
  readonly lastSeen: string;
}

/** `GET /v1/usage` and `skills-kernel usage --format json`: most used first. */
export interface UsageReport {
  /** How many days, counting today, the figures cover. */
  readonly days: number;
  /** Each skill's figures, most used first. */
  readonly skills: readonly SkillUsageFigures[];
  /** The searches that found nothing good, most asked first (only the top ones). */
  readonly misses: readonly MissFigures[];
}

/** Who a report is for: the catalog they may see, and one group's figures or everyone's. */
export interface UsageQuery {
  /** 1 to the retention, counting today. */
  readonly days: number;
  /** The reader's view: skills of sources it does not show are left out. */
  readonly catalog: CatalogView;
  /** One caller group's figures (`groups:platform`, `scope:skills:x`, `anonymous`); default: every caller's. */
  readonly group?: string;
  /**
   * Keep figures of skills no source serves now (removed since, or installed from elsewhere by the
   * CLI): for a reader who sees every source. Default: only when the catalog restricts nothing.
   */
  readonly unserved?: boolean;
}

/**
 * What the usage plugin offers other plugins (`TOKENS.Usage`): the figures for operators, the
 * ranking for whatever orders skills by use (the catalog summary), and the CLI's installs.
 */
export interface SkillUsage {
  /**
   * The scope a signed-in caller's token holds to read the figures over HTTP (the static token's
   * holder reads them too; nobody on a server without auth).
   */
  readonly operatorScope: string;
  /** Days of figures kept: the most a report may span. */
  readonly retentionDays: number;
  /** The figures over `days`, as `query.catalog` may see them, most used first. Rejects when the store cannot be read. */
  report(query: UsageQuery): Promise<UsageReport>;
  /**
   * How often `skill` was used (read, fetched, installed) in the plugin's `rankDays`, by every
   * caller, from figures read in the background: it never waits, and is 0 until the first
   * reading. The usage plugin provides it as `TOKENS.SkillPopularity` for the catalog summary.
   */
  popularity(skill: AreaSkill): number;
  /** Count an install made outside the tools (the CLI's `install` and `add`). */
  installed(skill: { readonly source: string; readonly name: string }): void;
  /** Write what is counted so far (a report flushes first; tests and shutdown too). */
  flush(): Promise<void>;
}
