import { skillCategory } from "../skill-md/skill-fields.js";
import { topicWords } from "../topic-words.js";

/** What the summary reads of a skill to place it in an area and weigh it as an example. */
export interface AreaSkill {
  /** What the tools take (a plain name, or a qualified id). */
  readonly id: string;
  /** The skill's name, for the words that place it; `id` stands in when absent. */
  readonly name?: string;
  /** What the skill is for: its start places the skill and picks the examples. */
  readonly description: string;
  /** The source's name: a summary covers each source in turn. */
  readonly source?: string;
  /** The skill's folder within its source, POSIX separators. */
  readonly path?: string;
  /** The frontmatter, whose `category` (or metadata's) names the skill's area. */
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
    const group = groups.get(key);
    if (group) group.push(skill);
    else groups.set(key, [skill]);
  });
  return groups;
}

/** How many skills an area's examples are chosen among: a sample spread over the area beyond that. */
const MAX_CANDIDATES = 1_000;
/** The most used skills added to that sample, whether it holds them or not. */
const MAX_POPULAR = 16;

/** What an example is chosen by: the start of a description says what the skill is for, the rest how. */
const WORDS_FROM_CHARS = 300;
/**
 * Each skill's distinct words (name and the start of its description, common ones left out) as numbers, and how
 * many of the skills use each word: what choosing examples reads once per skill per pick.
 */
function vocabularies(skills: readonly AreaSkill[]): { words: Int32Array[]; shared: Float64Array } {
  const ids = new Map<string, number>();
  /** For each word, the last skill it was counted for (a skill counts a word once), and how many skills use it. */
  const lastSkill: number[] = [];
  const shared: number[] = [];
  const words: Int32Array[] = [];
  const own: number[] = [];
  // Plain loops: this runs once per start, mostly before V8 has optimised anything.
  for (let index = 0; index < skills.length; index++) {
    const skill = skills[index]!;
    const found = topicWords(`${skill.name ?? skill.id} ${skill.description.slice(0, WORDS_FROM_CHARS)}`);
    own.length = 0;
    for (let k = 0; k < found.length; k++) {
      const word = found[k]!;
      let id = ids.get(word);
      if (id === undefined) {
        id = ids.size;
        ids.set(word, id);
        lastSkill.push(-1);
        shared.push(0);
      }
      if (lastSkill[id] === index) continue;
      lastSkill[id] = index;
      shared[id]!++;
      own.push(id);
    }
    words.push(Int32Array.from(own));
  }
  return { words, shared: Float64Array.from(shared) };
}

/**
 * The skills that together stand for an area, best first, one per call of `next()` (a summary
 * asks only for as many as it has room for), chosen without usage data by what they say: each
 * next one is the skill whose words, not yet said by those chosen, are shared by the most skills
 * of the area (so an example is typical of its area, and the examples differ), per word it uses
 * (a long description gains nothing by length alone), preferring a sub-folder no example comes
 * from yet. It ends early when every skill left only repeats words already said. With
 * `popularity`, a skill's gain is multiplied by 1 + log2(1 + its uses): the skills callers use
 * most come first unless they add nothing new. Ties go to catalog order.
 */
export function* representatives<S extends AreaSkill>(area: Area<S>, popularity?: SkillPopularity): Generator<S> {
  const pool = sample(area.skills, MAX_CANDIDATES);
  if (popularity) {
    // The most used are candidates even when the sample missed them.
    const used = area.skills.map((skill) => [skill, safeCount(popularity(skill))] as const).filter(([, n]) => n > 0);
    used.sort((a, b) => b[1] - a[1]);
    const inPool = new Set(pool);
    for (const [skill] of used.slice(0, MAX_POPULAR)) if (!inPool.has(skill)) pool.push(skill);
  }
  const { words, shared } = vocabularies(pool);
  const base = pool.map((skill, i) => {
    const uses = popularity ? 1 + Math.log2(1 + safeCount(popularity(skill))) : 1;
    // A skill shadowed by another of its name answers to a long qualified id: a poorer example.
    return (uses / Math.sqrt(words[i]!.length + 1)) * (skill.id.includes(":") ? 0.5 : 1);
  });
  const subFolder = subFolders(pool);

  const choice: Choice = {
    words,
    shared,
    base: Float64Array.from(base),
    taken: new Uint8Array(pool.length),
    said: new Uint8Array(shared.length),
    // Halved once an example comes from the same sub-folder.
    spread: new Float64Array(pool.length).fill(1),
  };
  for (let picks = 0; picks < pool.length; picks++) {
    const [best, score] = bestNext(choice);
    // A skill that says nothing the chosen ones have not (a copy) is no example of anything new.
    if (score <= 0 && picks > 0) return;
    choice.taken[best] = 1;
    for (const id of words[best]!) choice.said[id] = 1;
    for (let i = 0; i < pool.length; i++) if (subFolder[i] === subFolder[best]) choice.spread[i] = 0.5;
    yield pool[best]!;
  }
}

/** What the choice of examples reads, by skill index (words by word number). */
interface Choice {
  readonly words: readonly Int32Array[];
  readonly shared: Float64Array;
  readonly base: Float64Array;
  readonly taken: Uint8Array;
  readonly said: Uint8Array;
  readonly spread: Float64Array;
}

/** The skill not taken yet that adds most, and its score (the first on a tie). Plain loops: it runs at start, before any JIT. */
function bestNext({ words, shared, base, taken, said, spread }: Choice): [number, number] {
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < words.length; i++) {
    if (taken[i]) continue;
    const own = words[i]!;
    let gain = 0;
    for (let w = 0; w < own.length; w++) if (!said[own[w]!]) gain += shared[own[w]!]!;
    const score = gain * base[i]! * spread[i]!;
    if (best < 0 || score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return [best, bestScore];
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
