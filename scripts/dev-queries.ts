// The development set: pseudo-queries generated from the corpus skills themselves, seeded, so
// ranking parameters are chosen on queries nobody wrote for the judged sets (docs/search.md). Each
// style imitates a kind of request, built from text the ranker indexes little or not at all:
//
// - keyword: three words of the description, in random order;
// - typo: the same with one word misspelt (a letter dropped, doubled, swapped or replaced);
// - task: a prose sentence from deep in the body, past the part the catalog keeps;
// - product-task: such a sentence, with its product's name (a rare word of the skill's name) added;
// - acronym: the initials of a capitalised multi-word name the skill spells out, plus a word of
//   its description;
// - paraphrase: a deep body sentence without the words of the skill's name and description.
//
// Negative queries (requests no skill of a developer catalog covers) are written by hand below, and
// so is a small set of requests in plain words, written from reading corpus skills (never from the
// judged sets): `written-paraphrase` (what the skill does, in words it does not use),
// `written-product` (a long task that names a product among everyday words) and `written-acronym`
// (a short form of a multi-word name the skill spells out or is named after).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogSkill } from "../src/skills/catalog/catalog-types.js";

export interface DevQuery {
  readonly id: string;
  readonly style: string;
  readonly query: string;
  readonly accepted: ReadonlySet<string>;
}

/** Requests outside what a catalog of developer and agent skills covers: none should look strong. */
export const NEGATIVE_QUERIES: readonly string[] = [
  "knitting patterns for a winter scarf",
  "what will the weather be tomorrow in lisbon",
  "recipe for sourdough bread with a rye starter",
  "best exercises to strengthen lower back muscles",
  "translate my grandmother's letters from old church slavonic",
  "plan a three week backpacking route through patagonia",
  "how to repot an orchid after it finishes blooming",
  "tips for training a stubborn beagle puppy to walk on a leash",
  "compose a lullaby for a newborn in the style of brahms",
  "which wine pairs with grilled octopus",
  "repair a dripping kitchen faucet cartridge",
  "horoscope for capricorn this month",
  "learn to juggle five balls",
  "choose fishing lures for trout in a mountain lake",
  "fix the chain on my road bike that keeps slipping",
  "write a wedding toast for my sister",
  "identify wild mushrooms in the forest",
  "what is the rule for castling in chess",
  "sew a quilt from old t-shirts",
  "care instructions for a cashmere sweater",
  "improve my golf swing and putting",
  "decorate a nursery with a woodland theme",
  "get rid of aphids on tomato plants",
  "prepare for a marathon in sixteen weeks",
  "tune a ukulele by ear",
];

/**
 * Requests written by hand for corpus skills: style, query, accepted names (comma-separated). Each
 * is used when one of its names is in the catalog.
 */
export const WRITTEN_QUERIES: readonly (readonly [style: string, query: string, accepted: string])[] = [
  ["written-paraphrase", "my customers keep cancelling their plan, how do I keep them", "churn-prevention"],
  [
    "written-paraphrase",
    "find the slow parts of my python program and make it run faster",
    "python-performance-optimization",
  ],
  ["written-paraphrase", "keep a record of what the board agreed on in each meeting", "decision-logger"],
  ["written-paraphrase", "keep track of the papers I cite and format the bibliography", "citation-management"],
  ["written-paraphrase", "find out why my program crashes and track down the cause", "debugging-strategies"],
  ["written-paraphrase", "lock down which pods may talk to each other in the cluster", "k8s-security-policies"],
  [
    "written-paraphrase",
    "annotate my python functions so wrong arguments are caught before running",
    "python-type-safety",
  ],
  ["written-paraphrase", "a small window that appears over the page asking visitors for their email", "popup-cro"],
  ["written-paraphrase", "mark up my pages so google shows rich results with stars and prices", "schema-markup"],
  ["written-paraphrase", "show a new engineer around the codebase step by step", "code-tour,codebase-onboarding"],
  ["written-paraphrase", "teach the model which of two answers people liked better", "preference-optimization"],
  ["written-paraphrase", "work out which genes control which from expression measurements", "arboreto"],
  ["written-paraphrase", "write emails to prospects who have never heard of us", "ai-cold-outreach,cold-email"],
  ["written-paraphrase", "work with maps, shapefiles and country borders in python", "geopandas"],
  [
    "written-product",
    "our marketing site is built with Astro and the Lighthouse score dropped, make the pages load faster",
    "perf-astro",
  ],
  [
    "written-product",
    "the team keeps all the infrastructure in Terraform, organise the modules and state for three environments",
    "terraform-patterns",
  ],
  [
    "written-product",
    "build the screens exactly as drawn in Figma and turn the frames into components",
    "figma-implement-design",
  ],
  ["written-product", "the cytometer writes FCS files, load the events into arrays so I can analyse them", "flowio"],
  [
    "written-product",
    "set up Cedar policies so that every tool call the agent makes is checked and the receipts signed",
    "protect-mcp-setup",
  ],
  [
    "written-product",
    "we make medical devices and need the quality documents ready for ISO 13485 before the audit",
    "iso-13485-certification",
  ],
  ["written-product", "compute ECFP fingerprints for a list of compounds to train a model on them", "molfeat"],
  ["written-product", "we run mass spectrometry samples through OpenMS and need to identify the peptides", "pyopenms"],
  [
    "written-product",
    "pull the leads from Clay and fill in their company details before the outreach starts",
    "lead-enrichment",
  ],
  ["written-product", "write a Dockerfile for the node app so it builds small images", "docker-development"],
  [
    "written-product",
    "the game scripts are in GDScript, add a state machine for the player",
    "godot-gdscript-patterns",
  ],
  [
    "written-acronym",
    "write the TDD for the new payment service with all the sections",
    "technical-design-doc-creator",
  ],
  ["written-acronym", "infer the GRN from my single cell data", "arboreto"],
  ["written-acronym", "classify our device under the EU MDR", "mdr-745-specialist"],
  ["written-acronym", "score our leads against the ICP", "lead-enrichment"],
  ["written-acronym", "set up OKR cadence for the operations team", "coo-advisor"],
  ["written-acronym", "write the AGENTS.md for this repository", "agents-md"],
  ["written-acronym", "our CWV are failing on mobile, fix the LCP", "core-web-vitals"],
  ["written-acronym", "record the choice of message broker as an ADR", "architecture-decision-records,create-adr"],
  ["written-acronym", "ASO for our fitness app listing", "app-store-optimization"],
  ["written-acronym", "do a quick EDA of this sensor dataset", "exploratory-data-analysis"],
  ["written-acronym", "CSM playbook for accounts at risk of not renewing", "customer-success-manager"],
  ["written-acronym", "download slides from the IDC portal", "imaging-data-commons"],
];

const STOP = new Set(
  "a an and are as at be by can for from has have how if in into is it its of on or that the their then this to use used uses using when where which while will with you your what who why also not all any more most other such than these those them they we our was were been do does should would could may might must".split(
    " ",
  ),
);

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (text: string) => text.toLowerCase().match(/[a-z][a-z0-9]+/g) ?? [];

/** The body past the catalog's excerpt: prose sentences only, code, tables, headings and lists' markup dropped. */
function deepSentences(document: string): string[] {
  const body = document.replace(/^---[^]*?\n---\s*\n/, "");
  const deep = body
    .slice(2500)
    .replace(/```[^]*?(?:```|$)/g, " ")
    .split("\n")
    .filter((line) => !/^\s*(#|\||<|!\[)/.test(line))
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").replace(/[`*_[\]()>]/g, " "))
    .join(" ");
  return deep
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => {
      const n = s.split(" ").length;
      return n >= 8 && n <= 25 && /^[A-Z]/.test(s) && !/https?:|[{}=;$]|\.\w+\//.test(s);
    });
}

function misspell(word: string, random: () => number): string {
  const i = 1 + Math.floor(random() * (word.length - 2));
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word[i] + word.slice(i);
    case 2:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    default:
      return word.slice(0, i) + "aeiou"[Math.floor(random() * 5)] + word.slice(i + 1);
  }
}

/** Capitalised names of two to four words ("Google Search Console") and their initials. */
function capitalisedNames(text: string): { phrase: string; initials: string }[] {
  const found: { phrase: string; initials: string }[] = [];
  for (const match of text.matchAll(/\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+){1,3}\b/g)) {
    const parts = match[0].split(/[ -]/);
    found.push({ phrase: match[0], initials: parts.map((p) => p[0]!.toLowerCase()).join("") });
  }
  return found;
}

/**
 * About `perSkill` queries of each style for every skill that has the text a style needs; `root` is
 * the folder the skills' paths are relative to (their SKILL.md files are read whole).
 */
export function generateDevQueries(skills: readonly CatalogSkill[], root: string, seed = 7): DevQuery[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const queries: DevQuery[] = [];
  const add = (style: string, query: string, skill: CatalogSkill) =>
    queries.push({ id: `${style}-${queries.length}`, style, query, accepted: new Set([skill.name]) });
  // How many skill names each word appears in: a product's name is a word few names share.
  const nameWords = new Map<string, number>();
  const descriptionWords = new Map<string, number>();
  for (const skill of skills) {
    for (const w of new Set(skill.name.toLowerCase().split(/[-_\s]+/))) nameWords.set(w, (nameWords.get(w) ?? 0) + 1);
    for (const w of new Set(words(skill.description))) descriptionWords.set(w, (descriptionWords.get(w) ?? 0) + 1);
  }
  // A capitalised name found in many skills is boilerplate ("Use This Skill"), not what one is about.
  const phraseSkills = new Map<string, number>();
  for (const skill of skills) {
    for (const p of new Set(capitalisedNames(`${skill.description}\n${skill.excerpt}`).map((n) => n.phrase))) {
      phraseSkills.set(p, (phraseSkills.get(p) ?? 0) + 1);
    }
  }
  for (const skill of skills) {
    let document = "";
    try {
      document = readFileSync(join(root, skill.path, "SKILL.md"), "utf8");
    } catch {
      continue;
    }
    const described = words(skill.description).filter((w) => w.length > 3 && !STOP.has(w));
    if (described.length >= 3) {
      const chosen = new Set<string>();
      while (chosen.size < 3) chosen.add(pick(described));
      const keyword = [...chosen];
      add("keyword", keyword.join(" "), skill);
      const long = keyword.findIndex((w) => w.length >= 5);
      if (long >= 0) add("typo", keyword.map((w, i) => (i === long ? misspell(w, random) : w)).join(" "), skill);
    }
    const deep = deepSentences(document);
    if (deep.length > 0) add("task", pick(deep), skill);
    const product = skill.name
      .toLowerCase()
      .split(/[-_\s]+/)
      .find((w) => w.length >= 4 && !STOP.has(w) && nameWords.get(w)! <= 3 && (descriptionWords.get(w) ?? 0) <= 8);
    if (product && deep.length > 1) {
      const sentence = pick(deep).replace(new RegExp(`\\b${product}\\b`, "gi"), "it");
      add(
        "product-task",
        `${sentence.replace(/[.!?]$/, "")}, with ${product[0]!.toUpperCase()}${product.slice(1)}`,
        skill,
      );
    }
    const names = capitalisedNames(`${skill.description}\n${skill.excerpt}`).filter(
      (n) => n.initials.length >= 3 && phraseSkills.get(n.phrase)! <= 2,
    );
    if (names.length > 0 && described.length > 0) {
      const { phrase, initials } = pick(names);
      const inPhrase = new Set(words(phrase));
      const other = described.filter((w) => !inPhrase.has(w));
      if (other.length > 0) add("acronym", `${initials.toUpperCase()} ${pick(other)}`, skill);
    }
    const known = new Set([...words(skill.name), ...words(skill.description)]);
    const paraphrases = deep
      .map((s) => words(s).filter((w) => !known.has(w) && !STOP.has(w)))
      .filter((ws) => ws.length >= 5);
    if (paraphrases.length > 0) add("paraphrase", pick(paraphrases).slice(0, 12).join(" "), skill);
  }
  const catalogNames = new Set(skills.map((skill) => skill.name));
  for (const [style, query, accepted] of WRITTEN_QUERIES) {
    const acceptedNames = accepted.split(",");
    if (!acceptedNames.some((name) => catalogNames.has(name))) continue;
    queries.push({ id: `${style}-${queries.length}`, style, query, accepted: new Set(acceptedNames) });
  }
  return queries;
}
