import { ToolInputError } from "../../kernel/errors.js";
import type { CatalogSkill } from "./catalog-types.js";
import type { CatalogView } from "./catalog-view.js";
import { checkRelativePath, FETCHABLE_FILES_LIMIT, withoutSecrets } from "../files/skill-files.js";
import { mapSkillUris, SKILL_DOCUMENT } from "../files/skill-uri.js";

/*
 * What completion/complete offers for skills: ids by prefix, then paths inside a skill. Every
 * function answers every match, best first; the MCP server sends the first 100 and says how many
 * there were. Only what a request could then read is offered: the files the whitelist serves.
 */

/**
 * The distinct candidates that start with `prefix`: those that do as typed first, then those that
 * do ignoring letter case, each group sorted.
 */
export function matchPrefix(candidates: Iterable<string>, prefix: string): string[] {
  const exact = new Set<string>();
  const folded = new Set<string>();
  const lower = prefix.toLowerCase();
  for (const candidate of candidates) {
    if (candidate.startsWith(prefix)) exact.add(candidate);
    else if (candidate.toLowerCase().startsWith(lower)) folded.add(candidate);
  }
  return [...[...exact].sort(byCodePoint), ...[...folded].sort(byCodePoint)];
}

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Skill ids as tools take them; a prefix with a ":" also matches qualified ids (`user:pdf`). */
export function completeSkillIds(skills: readonly CatalogSkill[], prefix: string): string[] {
  const qualified = prefix.includes(":");
  return matchPrefix(
    skills.flatMap((skill) => (qualified ? [skill.id, skill.qualifiedId] : [skill.id])),
    prefix,
  );
}

/**
 * A skill's files other than its SKILL.md, as the whitelist serves them (the first
 * FETCHABLE_FILES_LIMIT by path, files named like credentials only when included). A skill whose
 * files cannot be listed just now offers none.
 */
export async function completeSkillFiles(
  catalog: CatalogView,
  skill: CatalogSkill,
  prefix: string,
  includeSecretFiles: boolean,
): Promise<string[]> {
  return matchPrefix(await servedFiles(catalog, skill, includeSecretFiles), prefix);
}

/** The `{skill}` of `skill://{skill}/{+path}`: the first segment of each skill's URI. */
export function completeUriSkill(skills: readonly CatalogSkill[], prefix: string): string[] {
  return matchPrefix(
    mapSkillUris(skills).mapped.map((entry) => entry.segments[0]!),
    prefix,
  );
}

/**
 * The `{+path}` of `skill://{skill}/{+path}` once `{skill}` is `first`: for each skill whose URI
 * starts there, its SKILL.md; and the files of those whose folder the prefix has reached (a
 * source's segment offers each of its skills' SKILL.md, and lists the files of none until one is
 * chosen).
 */
export async function completeUriPath(
  catalog: CatalogView,
  first: string,
  prefix: string,
  includeSecretFiles: boolean,
): Promise<string[]> {
  const candidates: string[] = [];
  for (const entry of mapSkillUris(catalog.list()).mapped) {
    if (entry.segments[0] !== first) continue;
    const folder = entry.segments
      .slice(1)
      .map((segment) => `${segment}/`)
      .join("");
    if (prefix.startsWith(folder)) {
      candidates.push(`${folder}${SKILL_DOCUMENT}`);
      for (const path of await servedFiles(catalog, entry.skill, includeSecretFiles))
        candidates.push(`${folder}${path}`);
    } else if (folder.startsWith(prefix) || folder.toLowerCase().startsWith(prefix.toLowerCase())) {
      candidates.push(`${folder}${SKILL_DOCUMENT}`);
    }
  }
  return matchPrefix(candidates, prefix);
}

async function servedFiles(catalog: CatalogView, skill: CatalogSkill, includeSecretFiles: boolean): Promise<string[]> {
  let listing;
  try {
    listing = withoutSecrets(await catalog.listFiles(skill, FETCHABLE_FILES_LIMIT), includeSecretFiles);
  } catch (error) {
    // The source refuses the folder (replaced since the scan, or its files served by another skill).
    if (error instanceof ToolInputError) return [];
    throw error;
  }
  return listing.files.map((file) => file.path).filter((path) => checkRelativePath(path) === undefined);
}
