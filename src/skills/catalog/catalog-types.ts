import type { SourceSkill } from "../types.js";

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
