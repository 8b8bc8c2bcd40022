import { skillCategory } from "../skill-md/skill-fields.js";

/** What the summary reads of a skill to place it in an area and weigh it as an example. */
export interface AreaSkill {
  /** What the tools take (a plain name, or a qualified id). */
  readonly id: string;
  readonly name?: string;
  readonly description: string;
  /** The source's name: a summary covers each source in turn. */
  readonly source?: string;
  /** The skill's folder within its source, POSIX separators. */
  readonly path?: string;
  readonly frontmatter?: Readonly<Record<string, unknown>>;
}

/**
 * How much this server's callers use each skill (usage records), for choosing the skills that
 * stand for their area: among skills that say much the same, the one used more is chosen. A
 * non-negative count; 0 for a skill never used. Read once per catalog listing, synchronously: give
 * it figures already in memory.
 */
export type SkillPopularity = (skill: AreaSkill) => number;

/** One part of a source: the skills of one declared category, or of one folder. */
export interface Area<S extends AreaSkill = AreaSkill> {
  /** `category` when the skills declare it, `folder` for the folder they share, `all` for a source not split. */
  readonly kind: "category" | "folder" | "all";
  /** The category or the folder, as written; "" for `all`. */
  readonly label: string;
  readonly skills: readonly S[];
}

/**
 * A source's skills in areas: each category its skills declare (frontmatter `category` or
 * `metadata.category`), then the skills declaring none by the first folder that tells them apart
 * (a repository of collections: `marketing/`, `engineering/`). Largest first; a source whose
 * skills neither declare a category nor sit in distinct folders is one area.
 */
export function areasOf<S extends AreaSkill>(skills: readonly S[]): Area<S>[] {
  const categories = new Map<string, { label: string; skills: S[] }>();
  const rest: S[] = [];
  for (const skill of skills) {
    const category = skillCategory(skill.frontmatter ?? {})
      .replace(/\s+/g, " ")
      .trim();
    if (category === "") {
      rest.push(skill);
      continue;
    }
    const key = category.toLowerCase();
    const area = categories.get(key) ?? { label: category, skills: [] };
    area.skills.push(skill);
    categories.set(key, area);
  }
  const areas: Area<S>[] = [...categories.values()].map((area) => ({ kind: "category", ...area }));
  if (rest.length > 0) {
    const folders = byFolder(rest, 0);
    if (folders.size <= 1) areas.push({ kind: "all", label: "", skills: rest });
    else for (const [label, skills] of folders) areas.push({ kind: "folder", label, skills });
  }
  return areas.sort((a, b) => b.skills.length - a.skills.length);
}

/** The folders a skill sits in within its source, its own folder left out. */
function parents(skill: AreaSkill): string[] {
  const segments = (skill.path ?? "").split("/").filter((segment) => segment !== "" && segment !== ".");
  return segments.slice(0, -1);
}

/**
 * Skills by the first folder below `depth` that tells them apart: the folders every skill shares
 * are skipped (`skills/`), so a flat collection is one group.
 */
function byFolder<S extends AreaSkill>(skills: readonly S[], depth: number): Map<string, S[]> {
  const paths = skills.map(parents);
  let at = depth;
  for (;;) {
    const first = paths[0]?.[at];
    if (first === undefined || !paths.every((path) => path[at] === first)) break;
    at++;
  }
  const groups = new Map<string, S[]>();
  skills.forEach((skill, index) => {
    const key = paths[index]![at] ?? "";
    groups.set(key, [...(groups.get(key) ?? []), skill]);
  });
  return groups;
}

/** How many skills an area's examples are chosen among: a sample spread over the area beyond that. */
const MAX_CANDIDATES = 1_000;

/**
 * Words too common in skill descriptions to tell skills apart ("Use when the user asks to…").
 * Short words (under three letters) are dropped anyway.
 */
const STOP_WORDS = new Set(
  (
    "the and for with that this from into your you are can use used uses using when whenever what which " +
    "who will also any all its their them they then than such via per not but how should would could " +
    "skill skills user users asks ask asked wants want need needs help helps task tasks work working " +
    "including include includes other more most etc based about like make makes new one two"
  ).split(" "),
);

/** The distinct words of a skill's name and description, common ones left out. */
export function vocabulary(skill: AreaSkill): Set<string> {
  const words = `${skill.name ?? skill.id} ${skill.description}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((word) => word.length >= 3 && !STOP_WORDS.has(word)));
}

/**
 * Up to `count` skills that together stand for an area, best first, chosen without usage data
 * by what they say: each next one is the skill whose words, not yet said by those chosen, are
 * shared by the most skills of the area (so an example is typical of its area, and the examples
 * differ), per word it uses (a long description gains nothing by length alone), preferring a
 * sub-folder no example comes from yet. It stops early when every skill left only repeats words
 * already said. With `popularity`, a skill's gain is multiplied by
 * 1 + log2(1 + its uses): the skills callers use most come first unless they add nothing new.
 * Ties go to catalog order.
 */
export function representatives<S extends AreaSkill>(area: Area<S>, count: number, popularity?: SkillPopularity): S[] {
  const pool = sample(area.skills, MAX_CANDIDATES);
  if (popularity) {
    // The most used are candidates even when the sample missed them.
    const used = area.skills.map((skill) => [skill, safeCount(popularity(skill))] as const).filter(([, n]) => n > 0);
    used.sort((a, b) => b[1] - a[1]);
    for (const [skill] of used.slice(0, count)) if (!pool.includes(skill)) pool.push(skill);
  }
  const words = pool.map(vocabulary);
  const shared = new Map<string, number>();
  for (const set of words) for (const word of set) shared.set(word, (shared.get(word) ?? 0) + 1);
  const boost = pool.map((skill) => (popularity ? 1 + Math.log2(1 + safeCount(popularity(skill))) : 1));
  const subFolder = subFolders(pool);

  const chosen: number[] = [];
  const said = new Set<string>();
  const folders = new Set<string>();
  while (chosen.length < Math.min(count, pool.length)) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      if (chosen.includes(i)) continue;
      let gain = 0;
      for (const word of words[i]!) if (!said.has(word)) gain += shared.get(word)!;
      let score = (gain / Math.sqrt(words[i]!.size + 1)) * boost[i]!;
      if (folders.has(subFolder[i]!)) score /= 2;
      // A skill shadowed by another of its name answers to a long qualified id: a poorer example.
      if (pool[i]!.id.includes(":")) score /= 2;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    // A skill that says nothing the chosen ones have not (a copy) is no example of anything new.
    if (bestScore <= 0 && chosen.length > 0) break;
    chosen.push(best);
    for (const word of words[best]!) said.add(word);
    folders.add(subFolder[best]!);
  }
  return chosen.map((i) => pool[i]!);
}

/** A popularity figure as a count: anything else (a plugin's NaN, a negative) counts as unused. */
function safeCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** At most `max` skills spread evenly over the area, in catalog order. */
function sample<S>(skills: readonly S[], max: number): S[] {
  if (skills.length <= max) return [...skills];
  const step = skills.length / max;
  return Array.from({ length: max }, (_, i) => skills[Math.floor(i * step)]!);
}

/** Each skill's sub-folder within its area: the first folder that tells the area's skills apart. */
function subFolders(pool: readonly AreaSkill[]): string[] {
  const key = new Map<AreaSkill, string>();
  for (const [label, skills] of byFolder(pool, 0)) for (const skill of skills) key.set(skill, label);
  return pool.map((skill) => key.get(skill) ?? "");
}
