import { escapeForDisplay } from "../display-text.js";
import { areasOf, representatives, type Area, type AreaSkill, type SkillPopularity } from "./summary-areas.js";

export type { SkillPopularity } from "./summary-areas.js";

/*
 * A catalog summary for the server's `instructions`: hosts that defer tool descriptions behind a
 * tool search show the model the instructions but no tool, so this is how it learns which skills
 * exist. Bounded, because instructions go into every conversation's context.
 */

/** A description longer than this is cut, at a word where one ends near the cut. */
export const SUMMARY_DESCRIPTION_CHARS = 200;
/** An example's description, in a summary of a catalog too large to list: shorter, so more areas get examples. */
const EXAMPLE_DESCRIPTION_CHARS = 90;

/** What a summary needs of a skill: its id and description; its source, folder and frontmatter place it in an area. */
export type SummarySkill = AreaSkill;

export interface CatalogSummary {
  readonly text: string;
  /** Skills named in `text`. */
  readonly listed: number;
  /** Skills not named in `text`. */
  readonly omitted: number;
}

export interface SummaryOptions {
  /** Said last when not every skill is named: how to find the others (which tools to call). */
  readonly howToSearch?: string;
  /** How much callers use each skill: the examples of an area favour the most used. */
  readonly popularity?: SkillPopularity;
}

/**
 * Every skill in a line (`- id: description`, in catalog order) when they all fit in `maxChars`;
 * otherwise an overview that still covers the whole catalog: every source with its count, and in
 * each the areas its skills fall into (declared categories, else the folders that tell them
 * apart) with their counts and a few examples chosen to stand for them (summary-areas.ts), then
 * `howToSearch`. The text never exceeds `maxChars` unless naming the sources alone does.
 */
export function summarizeCatalog(
  skills: readonly SummarySkill[],
  maxChars: number,
  options: SummaryOptions = {},
): CatalogSummary {
  const listing = listCatalog(skills, maxChars);
  if (listing.omitted === 0) return listing;
  return overview(skills, maxChars, options);
}

/**
 * One line per skill (`- id: description`), in catalog (precedence) order, until the next line
 * would not fit in `maxChars` together with the line that says how many were left out: the
 * `skills` prompt's listing, and the summary of a catalog small enough to list whole.
 */
export function listCatalog(skills: readonly SummarySkill[], maxChars: number): CatalogSummary {
  if (skills.length === 0) return { text: "This server serves no skills at the moment.", listed: 0, omitted: 0 };
  const header = `This server serves ${count(skills.length, "skill")}. Each is a folder of instructions (SKILL.md) for one kind of task:`;
  // Lines are made only until they pass maxChars: a catalog of thousands fills the budget with
  // its first few dozen, and the rest would be flattened and escaped for nothing.
  const lines: string[] = [];
  let whole = header.length;
  for (const skill of skills) {
    if (whole > maxChars) break;
    const line = `- ${oneLine(skill.id, 100)}: ${oneLine(skill.description, SUMMARY_DESCRIPTION_CHARS)}`;
    lines.push(line);
    whole += 1 + line.length;
  }
  if (whole <= maxChars) return { text: [header, ...lines].join("\n"), listed: skills.length, omitted: 0 };
  // Room for the widest "left out" line, so that whatever is left out can still be said.
  const room = maxChars - 1 - leftOut(skills.length, maxChars).length;
  let used = header.length;
  let listed = 0;
  while (listed < lines.length && used + 1 + lines[listed]!.length <= room) used += 1 + lines[listed++]!.length;
  const omitted = skills.length - listed;
  return { text: [header, ...lines.slice(0, listed), leftOut(omitted, maxChars)].join("\n"), listed, omitted };
}

function leftOut(omitted: number, maxChars: number): string {
  return `(and ${count(omitted, "more skill")}, left out to keep this summary within ${thousands(maxChars)} characters)`;
}

interface AreaBlock {
  readonly area: Area;
  /** Its line; "" for a source not split into areas, whose examples go under the source's line. */
  readonly line: string;
  /** Its examples, best first, chosen one at a time as the summary has room for them. */
  examples?: Iterator<SummarySkill>;
  /** The example lines shown. */
  readonly shown: string[];
}

interface SourceBlock {
  readonly line: string;
  readonly areas: readonly AreaBlock[];
  readonly skills: number;
  /** Area lines shown (a source not split shows its one block always). */
  shownAreas: number;
}

/**
 * The overview, made to fit: the header and how to search, then each source's line, then its
 * areas' lines (one of each source in turn), then examples (one of each area in turn), each added
 * while the text stays within `maxChars`; what does not fit is counted in an `and N more` line.
 * Each step's cost is worked out from the lines it adds and the `and N more` line it changes, so
 * the whole is rendered once, whatever the catalog.
 */
function overview(skills: readonly SummarySkill[], maxChars: number, options: SummaryOptions): CatalogSummary {
  const bySource = new Map<string, SummarySkill[]>();
  for (const skill of skills) {
    const source = skill.source ?? "";
    const own = bySource.get(source);
    if (own) own.push(skill);
    else bySource.set(source, [skill]);
  }
  const sources: SourceBlock[] = [...bySource].map(([name, own]) => {
    const areas = areasOf(own);
    const single = areas.length === 1 && areas[0]!.kind === "all";
    const what = `${count(own.length, "skill")}${single ? "" : ` in ${count(areas.length, "area")}`}`;
    return {
      line: name === "" ? `- ${what}:` : `- ${oneLine(name, 100)} (${what}):`,
      areas: areas.map((area) => ({ area, line: single ? "" : `  - ${areaLabel(area)}:`, shown: [] })),
      skills: own.length,
      shownAreas: single ? 1 : 0,
    };
  });
  const anyAreas = sources.some((source) => source.areas[0]!.line !== "");
  const header =
    `This server serves ${count(skills.length, "skill")}${bySource.size > 1 ? ` from ${count(bySource.size, "source")}` : ""}, ` +
    `more than fit here. Each is a folder of instructions (SKILL.md) for one kind of task. ` +
    `Every source${anyAreas ? " and area" : ""} it covers, with a few skills of each:`;
  const footer = options.howToSearch ?? "Search the skills to find the one for a task.";

  /** The length of a line and its newline; 0 for no line. */
  const cost = (line: string | undefined) => (line === undefined ? 0 : line.length + 1);
  // Skills from each source (each area of a source) on: what an `and N more` line counts.
  const sourcesFrom = suffixSums(sources.map((source) => source.skills));
  const areasFrom = new Map(
    sources.map((source) => [source, suffixSums(source.areas.map((b) => b.area.skills.length))]),
  );
  const moreSourcesLine = (from: number) =>
    from < sources.length
      ? `- and ${count(sources.length - from, "more source")} (${count(sourcesFrom[from]!, "skill")})`
      : undefined;
  const moreAreasLine = (source: SourceBlock, from: number) =>
    from < source.areas.length
      ? `  - and ${count(source.areas.length - from, "more area")} (${count(areasFrom.get(source)![from]!, "skill")})`
      : undefined;

  let shownSources = 0;
  let used = header.length + cost(footer) + cost(moreSourcesLine(0));
  /** Adds `delta` characters if they fit, and says whether they did. */
  const fits = (delta: number) => {
    if (used + delta > maxChars) return false;
    used += delta;
    return true;
  };

  for (const source of sources) {
    const delta =
      cost(source.line) +
      cost(moreAreasLine(source, source.shownAreas)) +
      cost(moreSourcesLine(shownSources + 1)) -
      cost(moreSourcesLine(shownSources));
    if (!fits(delta)) {
      // The first source is named whatever the budget: a summary names at least one.
      if (shownSources > 0) break;
      used += delta;
    }
    shownSources++;
  }
  const shown = sources.slice(0, shownSources);
  for (let round = 0, added = true; added; round++) {
    added = false;
    for (const source of shown) {
      if (source.shownAreas !== round || round >= source.areas.length) continue;
      const delta =
        cost(source.areas[round]!.line) + cost(moreAreasLine(source, round + 1)) - cost(moreAreasLine(source, round));
      if (!fits(delta)) continue;
      source.shownAreas++;
      added = true;
    }
  }
  const blocks = shown.flatMap((source) => source.areas.slice(0, source.shownAreas));
  for (let round = 0, added = true; added; round++) {
    added = false;
    for (const block of blocks) {
      if (block.shown.length !== round) continue;
      block.examples ??= representatives(block.area, options.popularity);
      const next = block.examples.next();
      if (next.done) continue;
      const line = exampleLine(block, next.value);
      if (!fits(cost(line))) continue;
      block.shown.push(line);
      added = true;
    }
  }

  const lines = [header];
  for (const source of shown) {
    lines.push(source.line);
    for (const block of source.areas.slice(0, source.shownAreas)) {
      if (block.line !== "") lines.push(block.line);
      lines.push(...block.shown);
    }
    const more = moreAreasLine(source, source.shownAreas);
    if (more !== undefined) lines.push(more);
  }
  const more = moreSourcesLine(shownSources);
  if (more !== undefined) lines.push(more);
  lines.push(footer);
  const listed = blocks.reduce((sum, block) => sum + block.shown.length, 0);
  return { text: lines.join("\n"), listed, omitted: skills.length - listed };
}

function areaLabel({ kind, label, skills }: Area): string {
  const what = count(skills.length, "skill");
  if (kind === "category") return `${oneLine(label, 60)} (category, ${what})`;
  // The skills of a source with categories that declare none; those beside its sub-folders.
  if (kind === "all") return `without a category (${what})`;
  return label === "" ? `beside those folders (${what})` : `${oneLine(label, 60)}/ (${what})`;
}

function exampleLine(block: AreaBlock, skill: SummarySkill): string {
  const indent = block.line === "" ? "  " : "    ";
  return `${indent}- ${oneLine(skill.id, 100)}: ${oneLine(skill.description, EXAMPLE_DESCRIPTION_CHARS)}`;
}

/** For each index, the sum of the values from there on (and 0 past the end). */
function suffixSums(values: readonly number[]): number[] {
  const sums = new Array<number>(values.length + 1).fill(0);
  for (let i = values.length - 1; i >= 0; i--) sums[i] = sums[i + 1]! + values[i]!;
  return sums;
}

function count(n: number, noun: string): string {
  return `${thousands(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** 12,345: as toLocaleString("en-US") writes it, without loading ICU's number formats at start. */
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Text from a SKILL.md as one line of at most `max` characters: whitespace runs (newlines
 * included) become one space, invisible and control characters are shown escaped, so a
 * description cannot start lines of its own in the instructions.
 */
export function oneLine(text: string, max: number): string {
  const flat = escapeForDisplay(text.replace(/\s+/g, " ").trim());
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1); // never half a surrogate pair
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
