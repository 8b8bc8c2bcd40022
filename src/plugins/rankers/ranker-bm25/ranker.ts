import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import { extractTriggers, skillLabels } from "../../../skills/skill-md/skill-fields.js";
import type { RankedSkill, Ranker, RankerSearchOptions } from "../../../skills/types.js";
import { Analyzer, TermList, type AnalysedWord, type TermNumbers } from "./analyze.js";
import { decodeIndex, encodeIndex } from "./index-file.js";
import { InvertedIndex, type Alternative, type FieldSpec } from "./inverted-index.js";
import { nameAbbreviations, outline, textAbbreviations } from "./outline.js";
import { whenToUse as whenToUseField } from "../../../skills/skill-md/claude-fields.js";

/**
 * The fields of a skill that are indexed, and how much a match in each counts. The name is the
 * strongest evidence (authors name skills after what they do), with the initials of its words
 * where the skill's own text uses them; the description and the trigger phrases in it (and the
 * body's "when to use" section) are what an agent reads to choose; author labels are short but
 * deliberate; the folders a skill sits in often name its category; the body's start is long and
 * mostly how-to; the outline (headings, abbreviations the text spells out, and the name's initials
 * the text never uses) says what the body covers.
 *
 * A rare word found in the name or the description earns a bonus for each: a skill whose summary
 * says the word is about it, while one that says it only in its body (a skill that mentions it in
 * passing, a near-duplicate that borrowed the text) merely uses it.
 */
const FIELDS = {
  name: { weight: 5, b: 0.5, bonus: 1 },
  description: { weight: 2, b: 0.75, bonus: 1 },
  triggers: { weight: 1.5, b: 0.75 },
  labels: { weight: 1.5, b: 0.5 },
  folders: { weight: 0.5, b: 0.5 },
  body: { weight: 0.4, b: 0.75 },
  outline: { weight: 1, b: 0.5 },
} as const satisfies Record<string, FieldSpec>;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];
const FIELD_SPECS = FIELD_NAMES.map((field) => FIELDS[field]);

/** BM25's term-frequency saturation. */
const K1 = 1.2;

/**
 * How much of the body is indexed: its first section or two, where skills say what they are for.
 * Indexing all the catalog keeps found little more on the development set for a markedly longer
 * build (docs/search.md).
 */
const BODY_CHARS = 1000;

/**
 * A query is read up to this many characters and this many distinct words: far more than any real
 * request, and a bound on the work a pasted document can cause.
 */
const MAX_QUERY_CHARS = 2000;
export const MAX_QUERY_WORDS = 32;

/**
 * A word no skill uses is taken as cut short ("kube", "postgre") and completed from this many
 * characters on; shorter ones ("py") would complete to half the vocabulary.
 */
const MIN_PREFIX_LENGTH = 4;
/** Completions considered per query word, shortest first: the closest to what was typed. */
const MAX_COMPLETIONS = 20;

/**
 * A skill matches a query when it scores at least this much: a long query otherwise "matches" every
 * skill that mentions one of its common words once in its body.
 */
const MIN_SCORE = 1;

/**
 * Coordination: a skill's share of the ideal score is multiplied by the share of the query's
 * rarity it matches, to this power. Rarity weights each word by its IDF, so one rare word (a
 * product's name) counts for more than several common ones; the power is low because BM25's sum
 * already rewards matching more words, and coordination on top of it let many common words
 * outvote one rare one (docs/search.md).
 */
const COVERAGE_POWER = 0.25;
/**
 * Every score of a query is multiplied by the share of its rarity that some skill matches, to this
 * power: a request with words no skill has ("knitting patterns") is covered in part at best.
 */
const CATALOG_COVERAGE_POWER = 1;

/** How much a match through a synonym, a completion or a typo correction counts against the word itself. */
const SYNONYM_WEIGHT = 0.7;
/** A compound's parts each stand for the compound ("node" for "node.js") at this weight. */
const PART_WEIGHT = 0.6;
const PREFIX_WEIGHT = 0.6;
const FUZZY_WEIGHT = 0.5;

function folders(path: string): string {
  return path.split("/").slice(0, -1).join(" ");
}

/** Code says how, not what: a fenced block would bury the prose around it. */
function withoutCode(excerpt: string): string {
  return excerpt.includes("```") ? excerpt.replace(/```[^]*?(?:```|$)/g, " ") : excerpt;
}

function fieldTexts(skill: CatalogSkill): Record<Field, string> {
  const prose = withoutCode(skill.excerpt);
  const body = prose.slice(0, BODY_CHARS);
  const { headings, whenToUse } = outline(prose);
  const abbreviations = textAbbreviations(`${skill.description}\n${prose}`);
  return {
    name: skill.name,
    description: skill.description,
    triggers: [...extractTriggers(skill.description), whenToUse, whenToUseField(skill) ?? ""].join(" "),
    labels: skillLabels(skill.frontmatter).join(" "),
    folders: folders(skill.path),
    body,
    outline: [headings, ...abbreviations].join("\n"),
  };
}

/**
 * Results are ordered by one float64 per document: the share of the ideal score in the high bits
 * and the document number (inverted, so earlier documents win ties) in the low 21 bits. A typed
 * array of numbers sorts natively, with no comparator call per comparison as objects need, and a
 * tool that asks for every match (to count them) pays for that sort.
 */
const DOC_BITS = 21;
const DOC_SPAN = 2 ** DOC_BITS;
const SHARE_STEPS = 2 ** 31;

function sortKey(share: number, doc: number): number {
  return Math.floor(Math.min(1, share) * SHARE_STEPS) * DOC_SPAN + (DOC_SPAN - 1 - doc);
}

function unpackKey(key: number): { share: number; doc: number } {
  const low = key % DOC_SPAN;
  return { share: (key - low) / DOC_SPAN / SHARE_STEPS, doc: DOC_SPAN - 1 - low };
}

/** The `limit` largest keys, largest first: a bounded min-heap when few are wanted, a native sort otherwise. */
function topKeys(keys: Float64Array, limit: number): Float64Array {
  if (limit <= 0 || keys.length === 0) return new Float64Array(0);
  if (limit * 16 >= keys.length) return keys.sort().reverse().subarray(0, limit);
  const heap = new Float64Array(limit);
  let size = 0;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    if (size < limit) {
      // Sift up.
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= key) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = key;
    } else if (key > heap[0]!) {
      // Replace the smallest and sift down.
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) break;
        const child = left + 1 < size && heap[left + 1]! < heap[left]! ? left + 1 : left;
        if (heap[child]! >= key) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = key;
    }
  }
  return heap.subarray(0, size).sort().reverse();
}

const NAME = FIELD_NAMES.indexOf("name");
const OUTLINE = FIELD_NAMES.indexOf("outline");
/** The fields whose words confirm a name's initials as a short form the skill goes by. */
const CONFIRMING = (["description", "triggers", "body", "outline"] as const).map((field) => FIELD_NAMES.indexOf(field));

/** Turns skills into numbered terms, field after field, with one ranker's analyser. */
class DocumentAnalyser {
  readonly #analyzer: Analyzer;
  /** The terms of one skill's name initials, reused from skill to skill. */
  readonly #initialTerms = new TermList();

  constructor(analyzer: Analyzer) {
    this.#analyzer = analyzer;
  }

  /** Fills `terms` with a skill's terms, field after field, and `fieldEnds` with where each field ends. */
  analyse(skill: CatalogSkill, terms: TermList, fieldEnds: Int32Array): void {
    const texts = fieldTexts(skill);
    terms.length = 0;
    FIELD_NAMES.forEach((field, f) => {
      this.#analyzer.appendIndexTerms(texts[field], terms);
      fieldEnds[f] = terms.length;
    });
    this.#addNameInitials(skill.name, terms, fieldEnds);
  }

  /**
   * A name's initials are a guess ("exploratory-data-analysis" is EDA, "code-reviewer-workflow"
   * hardly CRW). In a large catalog, initials no text uses collide with the abbreviations other
   * skills spell out, and the name's weight would put the guess first: the initials count as the
   * name only where the skill's own text uses them, as the outline otherwise.
   */
  #addNameInitials(name: string, terms: TermList, fieldEnds: Int32Array): void {
    const initials = nameAbbreviations(name);
    if (initials.length === 0) return;
    const initialTerms = this.#initialTerms;
    initialTerms.length = 0;
    this.#analyzer.appendIndexTerms(initials.join(" "), initialTerms);
    for (let i = 0; i < initialTerms.length; i++) {
      const initial = initialTerms.terms[i]!;
      if (!CONFIRMING.some((field) => fieldIncludes(terms, fieldEnds, field, initial))) {
        terms.push(initial);
        fieldEnds[OUTLINE] = terms.length;
        continue;
      }
      // Into the name, the first field: every later term moves up one place.
      terms.push(initial);
      const at = fieldEnds[NAME]!;
      terms.terms.copyWithin(at + 1, at, terms.length - 1);
      terms.terms[at] = initial;
      for (let f = NAME; f < fieldEnds.length; f++) fieldEnds[f]!++;
    }
  }
}

function fieldIncludes(terms: TermList, fieldEnds: Int32Array, field: number, term: number): boolean {
  for (let i = field === 0 ? 0 : fieldEnds[field - 1]!; i < fieldEnds[field]!; i++)
    if (terms.terms[i] === term) return true;
  return false;
}

/** Separators and case do not matter when a query names a skill: "PDF Tools" is "pdf-tools". */
function nameKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "-");
}

/**
 * The default ranker: BM25F over analysed skill text, with synonyms, prefix matching and typo
 * tolerance. docs/search.md explains each choice.
 */
export class Bm25Ranker implements Ranker {
  readonly name = "bm25";

  emptyCopy(): Bm25Ranker {
    return new Bm25Ranker();
  }
  /** This ranker's own vocabulary and word table: two rankers in one process share nothing. */
  readonly #analyzer = new Analyzer();
  readonly #documents = new DocumentAnalyser(this.#analyzer);
  /** One of each for the skills added or removed one at a time, reused from skill to skill. */
  readonly #documentTerms = new TermList();
  readonly #documentFieldEnds = new Int32Array(FIELD_NAMES.length);
  #index = new InvertedIndex(FIELD_SPECS, K1, this.#analyzer.terms);
  /** By document number; removed documents leave a hole until the next rebuild. */
  #skills: (CatalogSkill | undefined)[] = [];
  readonly #docs = new Map<string, number>();
  /**
   * The qualified ids of the skills each name key stands for, in the order they were added: one id
   * as itself (nearly every key), several in an array: a Set per key weighed on the index's heap.
   */
  readonly #byName = new Map<string, string | string[]>();
  /** The terms this ranker has numbered: its own, which no other ranker in the process sees. */
  get terms(): Pick<TermNumbers, "number" | "text"> {
    return this.#analyzer.terms;
  }

  /** Sort keys of the last search's matches (see #match); valid until the next search. */
  #keys = new Float64Array(0);
  /** The match count of the last search, for `count`; cleared whenever the index changes. */
  #lastCount: { query: string; source: string | undefined; total: number } | undefined;

  build(skills: readonly CatalogSkill[]): void {
    this.#index = new InvertedIndex(FIELD_SPECS, K1, this.#analyzer.terms);
    this.#skills = [];
    this.#docs.clear();
    this.#byName.clear();
    // A list that names one skill twice is added one by one, the later replacing the earlier.
    if (skills.length > DOC_SPAN || new Set(skills.map((skill) => skill.qualifiedId)).size !== skills.length) {
      this.add(skills);
      return;
    }
    this.#lastCount = undefined;
    this.#index.addAll(skills.length, (doc, terms, fieldEnds) =>
      this.#documents.analyse(skills[doc]!, terms, fieldEnds),
    );
    skills.forEach((skill, doc) => this.#hold(skill, doc));
  }

  /** The index just built, as bytes (index-file.ts); undefined once skills were added or removed since. */
  saveIndex(): Uint8Array | undefined {
    const parts = this.#index.parts();
    return parts && parts.documents === this.#skills.length ? encodeIndex(parts, FIELD_NAMES.length) : undefined;
  }

  /**
   * Loads an index saveIndex gave when it was built from these same skills, in this order (the
   * caller's key says so): false, with nothing loaded, for bytes that do not hold together.
   */
  loadIndex(skills: readonly CatalogSkill[], saved: Uint8Array): boolean {
    const parts = decodeIndex(saved, FIELD_NAMES.length);
    if (
      !parts ||
      parts.documents !== skills.length ||
      new Set(skills.map((skill) => skill.qualifiedId)).size !== skills.length
    )
      return false;
    const index = new InvertedIndex(FIELD_SPECS, K1, this.#analyzer.terms);
    if (!index.load(parts)) return false;
    this.#index = index;
    this.#skills = [];
    this.#docs.clear();
    this.#byName.clear();
    this.#lastCount = undefined;
    skills.forEach((skill, doc) => this.#hold(skill, doc));
    return true;
  }

  add(skills: readonly CatalogSkill[]): void {
    this.#lastCount = undefined;
    if (this.#index.capacity + skills.length > DOC_SPAN) {
      // Document numbers must fit the sort key: renumber from zero, if the catalog fits at all.
      const incoming = new Set(skills.map((skill) => skill.qualifiedId));
      const all = [
        ...this.#skills.filter((s): s is CatalogSkill => s !== undefined && !incoming.has(s.qualifiedId)),
        ...skills,
      ];
      if (all.length > DOC_SPAN) throw new Error(`the bm25 ranker holds at most ${DOC_SPAN} skills, not ${all.length}`);
      this.build(all);
      return;
    }
    for (const skill of skills) {
      // Adding a skill the index holds replaces it, so an update is one call.
      if (this.#docs.has(skill.qualifiedId)) this.remove([skill.qualifiedId]);
      this.#documents.analyse(skill, this.#documentTerms, this.#documentFieldEnds);
      this.#hold(skill, this.#index.add(this.#documentTerms.terms, this.#documentFieldEnds));
    }
  }

  /** Records that document `doc` is `skill`. */
  #hold(skill: CatalogSkill, doc: number): void {
    this.#skills[doc] = skill;
    this.#docs.set(skill.qualifiedId, doc);
    for (const key of this.#nameKeys(skill)) {
      const ids = this.#byName.get(key);
      if (ids === undefined) this.#byName.set(key, skill.qualifiedId);
      else if (typeof ids === "string") {
        if (ids !== skill.qualifiedId) this.#byName.set(key, [ids, skill.qualifiedId]);
      } else if (!ids.includes(skill.qualifiedId)) ids.push(skill.qualifiedId);
    }
  }

  remove(qualifiedIds: readonly string[]): void {
    this.#lastCount = undefined;
    for (const qualifiedId of qualifiedIds) {
      const doc = this.#docs.get(qualifiedId);
      if (doc === undefined) continue;
      const skill = this.#skills[doc]!;
      this.#documents.analyse(skill, this.#documentTerms, this.#documentFieldEnds);
      this.#index.remove(doc, this.#documentTerms.terms, this.#documentFieldEnds);
      this.#skills[doc] = undefined;
      this.#docs.delete(qualifiedId);
      for (const key of this.#nameKeys(skill)) {
        const ids = this.#byName.get(key);
        if (ids === skill.qualifiedId) this.#byName.delete(key);
        else if (Array.isArray(ids) && ids.includes(skill.qualifiedId)) {
          const rest = ids.filter((id) => id !== skill.qualifiedId);
          this.#byName.set(key, rest.length === 1 ? rest[0]! : rest);
        }
      }
    }
    // Removed documents keep their slots; once most slots are holes, start over compactly.
    if (this.#index.capacity > 1024 && this.#index.size < this.#index.capacity / 2) {
      this.build(this.#skills.filter((skill): skill is CatalogSkill => skill !== undefined));
    }
  }

  #nameKeys(skill: CatalogSkill): Set<string> {
    return new Set([nameKey(skill.name), nameKey(skill.id), nameKey(skill.qualifiedId)]);
  }

  search(query: string, options: RankerSearchOptions): RankedSkill[] {
    const { results, total } = this.#search(query, options);
    if (options.limit >= 1) this.#lastCount = { query, source: options.source, total };
    return results;
  }

  /**
   * How many skills match the query: what `search` would return with no limit, without ranking
   * them. search_skills asks right after a search for the same query, so the last search's count
   * is kept until the index changes.
   */
  count(query: string, options: Omit<RankerSearchOptions, "limit"> = {}): number {
    const last = this.#lastCount;
    if (last && last.query === query && last.source === options.source) return last.total;
    return this.#search(query, { ...options, limit: 1 }).total;
  }

  #search(query: string, options: RankerSearchOptions): { results: RankedSkill[]; total: number } {
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0) return { results: [], total: 0 };
    const source = options.source;

    // A query that names a skill gets that skill first, whatever the words score.
    const named = new Set<number>();
    const ids = this.#byName.get(nameKey(query)) ?? [];
    for (const id of typeof ids === "string" ? [ids] : ids) {
      const doc = this.#docs.get(id)!;
      if (source === undefined || this.#skills[doc]!.source === source) named.add(doc);
    }
    const ranked: RankedSkill[] = [...named]
      .sort((a, b) => a - b)
      .map((doc) => ({ skill: this.#skills[doc]!, score: 100 }));

    const words = this.#queryWords(query);
    if (words.length === 0) return { results: ranked.slice(0, limit), total: ranked.length };
    const matches = this.#match(words, named, source);
    for (const key of topKeys(matches.keys.subarray(0, matches.count), limit - ranked.length)) {
      const { share, doc } = unpackKey(key);
      ranked.push({ skill: this.#skills[doc]!, score: Math.min(99, Math.round(share * 1000) / 10) });
    }
    return { results: ranked, total: named.size + matches.count };
  }

  /** The sort keys of every matching skill (named ones and other sources left out). */
  #match(
    words: Alternative[][],
    named: ReadonlySet<number>,
    source: string | undefined,
  ): { keys: Float64Array; count: number } {
    const result = this.#index.score(words);
    try {
      // Coordination: a skill that matches more of the query's words ranks above one that
      // matches few of them strongly. The ideal matches every word as well as any skill does.
      const ideal = result.bestPerWord.reduce((sum, s) => sum + s, 0);
      const rarity = result.rarity.reduce((sum, r) => sum + r, 0);
      // How much of the query the catalog covers at all: words no skill has (the "knitting" of
      // "knitting patterns") lower every score alike, so the order stays and the labels tell.
      const covered = result.rarity.reduce((sum, r, w) => sum + (result.bestPerWord[w]! > 0 ? r : 0), 0) / rarity;
      const scale = covered ** CATALOG_COVERAGE_POWER;
      // Reused from search to search: a query with common words matches most of a large catalog,
      // and a fresh array of that size per query was allocated, zeroed and collected each time.
      if (this.#keys.length < result.docs.length) this.#keys = new Float64Array(result.docs.length);
      const keys = this.#keys;
      const { docs, scores, matchedWords } = result;
      const checkNamed = named.size > 0;
      const coverageWeights = new Map<number, number>();
      let count = 0;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const raw = scores[doc]! / ideal;
        // A long query matches most skills through one common word, far below the minimum: they
        // are dropped before the power. Coverage is at most 1 (a sum over some of the query's
        // words, in the same order, never rounds above the sum over all), so the share is at
        // most `raw` and no skill this skips could have passed.
        if (raw * 100 < MIN_SCORE) continue;
        // The power cost more than the rest of this loop: it is taken once per distinct set of
        // matched words, of which a query has few.
        const words = matchedWords[doc]!;
        let weight = coverageWeights.get(words);
        if (weight === undefined) {
          // Summed in word order, as the share of the query's rarity always has been.
          let matchedSum = 0;
          for (let w = 0; w < result.rarity.length; w++) if ((words >>> w) & 1) matchedSum += result.rarity[w]!;
          weight = (matchedSum / rarity) ** COVERAGE_POWER;
          coverageWeights.set(words, weight);
        }
        const share = raw * weight;
        if (share * 100 < MIN_SCORE || (checkNamed && named.has(doc))) continue;
        if (source !== undefined && this.#skills[doc]!.source !== source) continue;
        keys[count++] = sortKey(share * scale, doc);
      }
      return { keys, count };
    } finally {
      this.#index.release(result);
    }
  }

  /** Each distinct query word with the indexed terms that can stand for it, at most MAX_QUERY_WORDS. */
  #queryWords(query: string): Alternative[][] {
    const words: Alternative[][] = [];
    const seen = new Set<string>();
    for (const word of this.#analyzer.analyzeWords(query.slice(0, MAX_QUERY_CHARS))) {
      if (words.length >= MAX_QUERY_WORDS) break;
      const key = word.term ?? word.concepts.join(" ");
      if (seen.has(key)) continue;
      seen.add(key);
      const alternatives = this.#alternatives(word, 1);
      for (const part of word.parts ?? []) alternatives.push(...this.#alternatives(part, PART_WEIGHT));
      words.push(alternatives);
    }
    return words;
  }

  /** The terms that can stand for one word, each weighted against the word itself, times `scale`. */
  #alternatives({ term, concepts }: AnalysedWord, scale: number): Alternative[] {
    const alternatives: Alternative[] = concepts.map((concept) => ({ term: concept, weight: scale * SYNONYM_WEIGHT }));
    if (term === undefined) return alternatives;
    alternatives.push({ term, weight: scale });
    // A word the index knows is taken as meant; one it does not may be cut short ("kube") or
    // misspelt ("kubernetse"): it is completed and corrected from the index's vocabulary.
    if (!this.#index.has(term) && term.length >= MIN_PREFIX_LENGTH) {
      for (const completion of this.#index.completions(term, MAX_COMPLETIONS)) {
        alternatives.push({ term: completion, weight: (scale * PREFIX_WEIGHT * term.length) / completion.length });
      }
      for (const [similar, distance] of this.#index.similar(term, term.length < 8 ? 1 : 2)) {
        alternatives.push({ term: similar, weight: (scale * FUZZY_WEIGHT) / distance });
      }
    }
    return alternatives;
  }
}
