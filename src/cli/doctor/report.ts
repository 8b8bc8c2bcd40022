import type { AgentListing } from "../../lifecycle/agent-listings.js";
import type { CatalogSkill } from "../../skills/catalog/catalog-types.js";
import type { DescriptionProblem } from "../../skills/doctor/descriptions.js";
import type { Findability, Outranking, PhraseResult } from "../../skills/doctor/findability.js";
import type { NearDuplicate } from "../../skills/doctor/near-duplicates.js";

/** Where a skill's folder is: real, and as shown. */
export interface Located {
  readonly real: string;
  readonly shown: string;
}

/** One skill under review, as `--format json` gives it. */
export interface SkillReport {
  readonly id: string;
  readonly name: string;
  readonly source: string;
  /** Its folder relative to the working folder, or `source:path` for a remote skill. */
  readonly location: string;
  /** 0 to 100 (findability.ts); null with no phrase to try. */
  readonly findability: number | null;
  readonly phrases: readonly PhraseResult[];
  readonly outrankedBy: readonly Outranking[];
  /** The skill that takes its place on most of its own phrases. */
  readonly collision: Outranking | null;
  readonly problems: readonly DescriptionProblem[];
}

export interface DoctorReport {
  /** The ranker the phrases went through (the config's). */
  readonly ranker: string;
  /** Skills ranked against: what the server serves the model, and the folders given. */
  readonly catalog: number;
  readonly skills: readonly SkillReport[];
  readonly nearDuplicates: readonly { id: string; location: string; other: string; similarity: number }[];
  readonly listings: readonly AgentListing[];
  readonly totals: {
    readonly reviewed: number;
    readonly collisions: number;
    readonly overflows: number;
    readonly nearDuplicates: number;
    readonly problems: number;
  };
}

export interface DoctorFindings {
  readonly ranker: string;
  readonly catalog: number;
  readonly findability: readonly Findability[];
  readonly nearDuplicates: readonly NearDuplicate[];
  readonly problems: readonly { skill: CatalogSkill; problems: readonly DescriptionProblem[] }[];
  readonly listings: readonly AgentListing[];
  readonly where: (skill: CatalogSkill) => string;
}

export function doctorReport(findings: DoctorFindings): DoctorReport {
  const problemsOf = new Map(findings.problems.map(({ skill, problems }) => [skill.qualifiedId, problems]));
  const skills = findings.findability.map(({ skill, phrases, score, outrankedBy, collision }) => ({
    id: skill.id,
    name: skill.name,
    source: skill.source,
    location: findings.where(skill),
    findability: score ?? null,
    phrases,
    outrankedBy,
    collision: collision ?? null,
    problems: problemsOf.get(skill.qualifiedId) ?? [],
  }));
  const nearDuplicates = findings.nearDuplicates.map(({ skill, other, similarity }) => ({
    id: skill.id,
    location: findings.where(skill),
    other: other.id,
    similarity: Math.round(similarity * 100) / 100,
  }));
  return {
    ranker: findings.ranker,
    catalog: findings.catalog,
    skills,
    nearDuplicates,
    listings: findings.listings,
    totals: {
      reviewed: skills.length,
      collisions: skills.filter((skill) => skill.collision).length,
      overflows: findings.listings.filter((listing) => listing.overflow).length,
      nearDuplicates: nearDuplicates.length,
      problems: skills.reduce((sum, skill) => sum + skill.problems.length, 0),
    },
  };
}

/** 1 when a skill's own phrases find another skill instead, or an agent's listing overflows. */
export function exitCode(report: DoctorReport): number {
  return report.totals.collisions + report.totals.overflows > 0 ? 1 : 0;
}
