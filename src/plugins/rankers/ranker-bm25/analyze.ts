import { stem } from "./stem.js";
import { buildSynonymTable, foldPlural, SYNONYM_SETS } from "./synonyms.js";

/**
 * Turns text into index terms, the same way for skills and for queries:
 *
 * 1. Unicode: lower-cased, accents and compatibility forms folded (NFKD, marks removed); "C++",
 *    "C#", "F#" and ".NET" become words, since punctuation is otherwise a separator.
 * 2. Words are runs of letters and digits; words joined by . - _ / (next.js, pre-commit, ci/cd) are
 *    split, and a two-part compound with a short part is also kept joined ("nextjs", "precommit"),
 *    because users write both. Chinese, Japanese and Korean text has no spaces: it is indexed as
 *    overlapping character pairs.
 * 3. English stop words go; the rest are Porter-stemmed.
 * 4. Words and phrases of a synonym set add that set's concept term.
 */

// Function words and request phrasing ("I want to", "how do I", "please"): no topic of their own.
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each etc few for from further had has have having he her here hers him his how i " +
    "if in into is it its itself just let me more most my myself no nor not now of off on once only or other our ours out over " +
    "own please same she should so some such than that the their theirs them then there these they this those through to too " +
    "under until up us very via was we were what when where which while who whom why will with within without would you your " +
    "yours yourself want wants need needs"
  ).split(" "),
);

/** Longer runs are hashes, base64 or minified code, never words a user types. */
const MAX_WORD_LENGTH = 40;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
/** Letters, digits and the combining marks of decomposed letters. */
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
/** What may join the parts of one compound word: next.js, pre-commit, snake_case, ci/cd (. _ - /). */
function isJoiner(code: number): boolean {
  return code === 46 || code === 95 || code === 45 || code === 47;
}

/**
 * The rewrites of lower-cased text, each with the strings that trigger it: each scans the whole
 * text, so it runs only when a trigger is there. One loop runs them all, so a rewrite first
 * needed deep into a catalog's build goes through a call the optimised scan has already seen.
 */
const REWRITES: readonly (readonly [triggers: readonly string[], pattern: RegExp, replacement: string])[] = [
  [["'", "’"], /['’]s\b/g, ""],
  [["+"], /\bc\+\+/g, "cpp"],
  [["#"], /\b([cf])#/g, "$1sharp"],
  [[".net"], /(^|[^a-z0-9])\.net\b/g, "$1dotnet"],
];

function normalize(text: string): string {
  let folded = text.toLowerCase();
  for (const [triggers, pattern, replacement] of REWRITES) {
    if (triggers.some((trigger) => folded.includes(trigger))) folded = folded.replace(pattern, replacement);
  }
  return folded;
}

/** A synonym phrase a word starts: the folded words that must follow it (as phrase-word keys), and its concept's term number. */
interface Phrase {
  readonly rest: Int32Array;
  readonly concept: number;
}

/** The synonym sets as words and phrases keyed by folded word, with concept terms still as text. */
const SYNONYM_TABLE = buildSynonymTable(SYNONYM_SETS, (phrase) => phrase.split(" "));
/** The words that continue a phrase, numbered, so a word is matched against them by number. */
const REST_KEYS: ReadonlyMap<string, number> = (() => {
  const keys = new Map<string, number>();
  for (const list of SYNONYM_TABLE.phrases.values())
    for (const { rest } of list) for (const word of rest) if (!keys.has(word)) keys.set(word, keys.size);
  return keys;
})();

/**
 * Index terms are numbered, so an index keys its postings by number: indexing a word costs an array
 * access instead of hashing the word again. Only indexing numbers terms, so the table holds the
 * vocabulary of the skills indexed; a stream of new query words cannot grow it.
 */
export class TermNumbers {
  readonly #numbers = new Map<string, number>();
  readonly #texts: string[] = [];

  /** The number of an indexed term, if this table ever numbered it. */
  number(term: string): number | undefined {
    return this.#numbers.get(term);
  }

  text(id: number): string {
    return this.#texts[id]!;
  }

  /** The number of `term`, numbered now if new. */
  add(term: string): number {
    let id = this.#numbers.get(term);
    if (id === undefined) {
      id = this.#texts.length;
      this.#texts.push(term);
      this.#numbers.set(term, id);
    }
    return id;
  }
}

/** The synonym table with its concept terms numbered in one TermNumbers. */
interface NumberedSynonyms {
  readonly words: ReadonlyMap<string, number>;
  readonly phraseLists: readonly (readonly Phrase[])[];
  readonly phrasesByFirst: ReadonlyMap<string, number>;
}

function numberSynonyms(terms: TermNumbers): NumberedSynonyms {
  const phraseLists: (readonly Phrase[])[] = [];
  const phrasesByFirst = new Map<string, number>();
  for (const [first, list] of SYNONYM_TABLE.phrases) {
    phrasesByFirst.set(first, phraseLists.length);
    phraseLists.push(
      list.map(({ rest, concept }) => ({
        rest: Int32Array.from(rest, (word) => REST_KEYS.get(word)!),
        concept: terms.add(concept),
      })),
    );
  }
  const words = new Map([...SYNONYM_TABLE.words].map(([word, concept]) => [word, terms.add(concept)]));
  return { words, phraseLists, phrasesByFirst };
}

/**
 * A catalog repeats a few thousand words many times over, so each distinct word is analysed once
 * (stem, synonym concept, phrases) and kept in an open-addressing table keyed by a hash taken
 * while the text is scanned. A known word is found by comparing its characters in place, never cut
 * out of the text as a string, and what it contributes is read from typed columns, not objects:
 * a string and a Map lookup per word, and the objects behind it, were a large share of the index
 * build (docs/benchmarks.md). Bounded: once it holds WORD_CACHE_LIMIT words it is emptied before the
 * next text, so hostile queries cannot grow it without end.
 */
const WORD_CACHE_LIMIT = 200_000;
/**
 * FNV-1a, from a starting value drawn per process: query words are untrusted, and words crafted to
 * share one hash would make every lookup walk them all.
 */
const FNV_OFFSET = (0x811c9dc5 ^ Math.floor(Math.random() * 2 ** 32)) | 0;
const FNV_PRIME = 0x01000193;
/** In the term column: a stop word, and a stem no index has numbered yet (numbered when a document first uses it). */
const NO_TERM = -1;
const UNNUMBERED = -2;
/**
 * The word table starts small and doubles: its columns then grow within the first texts, while V8
 * still interprets the scan. Grown later, each column's first reassignment threw away the scan's
 * optimised code, compiled again at a cost a cold start pays in full (docs/benchmarks.md).
 */
const FIRST_ENTRIES = 32;
const FIRST_CHARS = 256;

class WordTable {
  readonly #terms: TermNumbers;
  readonly #synonyms: NumberedSynonyms;

  constructor(terms: TermNumbers, synonyms: NumberedSynonyms) {
    this.#terms = terms;
    this.#synonyms = synonyms;
  }

  /** Entry number plus one by slot (0: empty); at most half the slots are used. */
  slots = new Int32Array(FIRST_ENTRIES * 2);
  count = 0;
  /** The entries' characters, back to back. */
  chars = new Uint16Array(FIRST_CHARS);
  charsUsed = 0;
  // Columns, by entry number.
  hash = new Int32Array(FIRST_ENTRIES);
  start = new Int32Array(FIRST_ENTRIES);
  length = new Int32Array(FIRST_ENTRIES);
  term = new Int32Array(FIRST_ENTRIES);
  concept = new Int32Array(FIRST_ENTRIES);
  /** Index into the synonyms' phraseLists, or -1. */
  phrases = new Int32Array(FIRST_ENTRIES);
  /** The folded word's number among the words that continue a phrase, or -1. */
  restKey = new Int32Array(FIRST_ENTRIES);
  words: string[] = [];
  stems: (string | undefined)[] = [];

  /** The entry of text[start, end), hashed as `hash`, or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const { slots, chars } = this;
    const mask = slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) return -1;
      if (this.hash[entry] !== hash || this.length[entry] !== length) continue;
      const at = this.start[entry]!;
      let i = 0;
      while (i < length && chars[at + i] === text.charCodeAt(start + i)) i++;
      if (i === length) return entry;
    }
  }

  add(word: string, hash: number): number {
    if (this.count === this.hash.length) this.#growColumns();
    if ((this.count + 1) * 2 > this.slots.length) this.#growSlots();
    while (this.charsUsed + word.length > this.chars.length) {
      const chars = new Uint16Array(this.chars.length * 2);
      chars.set(this.chars);
      this.chars = chars;
    }
    const entry = this.count++;
    const folded = foldPlural(word);
    const stemmed = STOP_WORDS.has(word) ? undefined : stem(word);
    this.hash[entry] = hash;
    this.start[entry] = this.charsUsed;
    this.length[entry] = word.length;
    for (let i = 0; i < word.length; i++) this.chars[this.charsUsed++] = word.charCodeAt(i);
    this.term[entry] = stemmed === undefined ? NO_TERM : (this.#terms.number(stemmed) ?? UNNUMBERED);
    this.concept[entry] = this.#synonyms.words.get(folded) ?? -1;
    this.phrases[entry] = this.#synonyms.phrasesByFirst.get(folded) ?? -1;
    this.restKey[entry] = REST_KEYS.get(folded) ?? -1;
    this.words[entry] = word;
    this.stems[entry] = stemmed;
    this.#place(entry);
    return entry;
  }

  /** The entry of `word`, added if new. */
  entry(word: string): number {
    let hash = FNV_OFFSET;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
    const found = this.find(word, 0, word.length, hash);
    return found >= 0 ? found : this.add(word, hash);
  }

  /** The term number of an entry that has a stem, numbering the stem if no index has yet. */
  numberedTerm(entry: number): number {
    let term = this.term[entry]!;
    if (term === UNNUMBERED) {
      term = this.#terms.add(this.stems[entry]!);
      this.term[entry] = term;
    }
    return term;
  }

  /** Emptied between texts, never during one: the entries of the text being scanned stay valid. */
  clearIfFull(): void {
    if (this.count < WORD_CACHE_LIMIT) return;
    this.slots.fill(0);
    this.count = 0;
    this.charsUsed = 0;
    this.words = [];
    this.stems = [];
  }

  #place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hash[entry]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }

  #growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let entry = 0; entry < this.count; entry++) this.#place(entry);
  }

  #growColumns(): void {
    const grow = (column: Int32Array) => {
      const grown = new Int32Array(column.length * 2);
      grown.set(column);
      return grown;
    };
    this.hash = grow(this.hash);
    this.start = grow(this.start);
    this.length = grow(this.length);
    this.term = grow(this.term);
    this.concept = grow(this.concept);
    this.phrases = grow(this.phrases);
    this.restKey = grow(this.restKey);
  }
}

/** Where analysing a text leaves its words: entries of the word table, in order. */
class Scanned {
  entries = new Int32Array(FIRST_ENTRIES);
  count = 0;

  push(entry: number): void {
    if (this.count === this.entries.length) {
      const grown = new Int32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    this.entries[this.count++] = entry;
  }
}

/** One word of a text: its stem (none for a stop word) and the concepts it starts. */
export interface AnalysedWord {
  readonly term: string | undefined;
  readonly concepts: readonly string[];
  /** For a compound's joined form ("nextjs"), its parts, which the text also lists just before it. */
  readonly parts?: readonly AnalysedWord[];
}

/** A growable list of term numbers, reused from document to document. */
export class TermList {
  terms = new Int32Array(1024);
  length = 0;

  push(term: number): void {
    if (this.length === this.terms.length) this.reserve(this.terms.length * 2);
    this.terms[this.length++] = term;
  }

  /** Room for `capacity` terms in all. */
  reserve(capacity: number): void {
    if (capacity <= this.terms.length) return;
    const grown = new Int32Array(capacity);
    grown.set(this.terms.subarray(0, this.length));
    this.terms = grown;
  }
}

/**
 * One ranker's analyser: its term numbers, its word table and its scratch list. Each ranker owns
 * one, so two kernels in a process share no vocabulary and no buffer.
 */
export class Analyzer {
  readonly terms = new TermNumbers();
  readonly #synonyms = numberSynonyms(this.terms);
  readonly #table = new WordTable(this.terms, this.#synonyms);
  /**
   * The entries of the words of the text scanned last, reused from text to text: a catalog's build
   * scans a hundred thousand texts, and an array per text was garbage to collect.
   */
  readonly #scanned = new Scanned();

  /**
   * The words of a query in order, with the concept terms of the synonym words and phrases they
   * start. A compound ("next.js") is one word: its joined form, carrying its parts, replaces them, so
   * one word the user wrote never counts as three.
   */
  analyzeWords(text: string): AnalysedWord[] {
    const table = this.#table;
    const joinedAt = new Set<number>();
    const count = this.#scanWords(text, joinedAt);
    const scanned = this.#scanned.entries;
    const out: (AnalysedWord | undefined)[] = [];
    for (let i = 0; i < count; i++) {
      const entry = scanned[i]!;
      const term = table.stems[entry];
      const concept = table.concept[entry]!;
      const concepts: string[] = concept >= 0 ? [this.terms.text(concept)] : [];
      const phrases = table.phrases[entry]!;
      if (phrases >= 0)
        for (const phrase of this.#synonyms.phraseLists[phrases]!)
          if (this.#continues(count, i, phrase)) concepts.push(this.terms.text(phrase.concept));
      const word = term !== undefined || concepts.length > 0 ? { term, concepts } : undefined;
      if (joinedAt.has(i)) {
        const parts = out.splice(-2).filter((part): part is AnalysedWord => part !== undefined);
        out.push(word ? { ...word, parts } : undefined);
      } else out.push(word);
    }
    return out.filter((word): word is AnalysedWord => word !== undefined);
  }

  /** Appends the numbered index terms of a document's text to `out`, in order, repeated as often as they occur. */
  appendIndexTerms(text: string, out: TermList): void {
    const table = this.#table;
    const count = this.#scanWords(text);
    const scanned = this.#scanned.entries;
    const { term: terms, concept: concepts, phrases: phraseColumn } = table;
    for (let i = 0; i < count; i++) {
      const entry = scanned[i]!;
      const term = terms[entry]!;
      if (term !== NO_TERM) out.push(term === UNNUMBERED ? table.numberedTerm(entry) : term);
      const concept = concepts[entry]!;
      if (concept >= 0) out.push(concept);
      const phrases = phraseColumn[entry]!;
      if (phrases >= 0)
        for (const phrase of this.#synonyms.phraseLists[phrases]!)
          if (this.#continues(count, i, phrase)) out.push(phrase.concept);
    }
  }

  /** Whether `phrase` continues after the i-th scanned word, among the first `count`. */
  #continues(count: number, i: number, phrase: Phrase): boolean {
    const { rest } = phrase;
    if (i + rest.length >= count) return false;
    const scanned = this.#scanned.entries;
    for (let j = 0; j < rest.length; j++) if (this.#table.restKey[scanned[i + 1 + j]!] !== rest[j]) return false;
    return true;
  }

  /** Accents dropped ("café" is "cafe"); Chinese, Japanese and Korean runs cut into overlapping pairs. */
  #pushForeign(part: string): void {
    const table = this.#table;
    const scanned = this.#scanned;
    const folded = part.normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFC");
    if (!CJK.test(folded)) {
      if (folded) scanned.push(table.entry(folded));
      return;
    }
    for (const run of folded.matchAll(CJK_RUNS)) {
      const chars = [...run[0]];
      if (!CJK.test(chars[0]!)) scanned.push(table.entry(run[0]));
      else if (chars.length === 1) scanned.push(table.entry(chars[0]!));
      else for (let i = 0; i + 1 < chars.length; i++) scanned.push(table.entry(chars[i]! + chars[i + 1]!));
    }
  }

  /**
   * The words of a text as written (lower-cased, unstemmed), each two-part compound followed by its
   * joined form, as entries of the word table into the scratch list; returns how many. Character
   * codes are scanned directly: ASCII decides in a comparison (and feeds the word's hash), and only
   * the rare other characters go through a Unicode regex.
   */
  #scanWords(text: string, joinedAt?: Set<number>): number {
    const table = this.#table;
    const scanned = this.#scanned;
    table.clearIfFull();
    scanned.count = 0;
    const normalized = normalize(text);
    const n = normalized.length;
    let start = -1;
    let foreign = false;
    let hash = FNV_OFFSET;
    let previous = -1;
    let previousEnd = -2;
    let partsInCompound = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? normalized.charCodeAt(i) : 32;
      let isWord: boolean;
      let width = 1;
      if (c < 128) isWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
      else {
        const point = normalized.codePointAt(i)!;
        width = point > 0xffff ? 2 : 1;
        isWord = WORD_CHAR.test(String.fromCodePoint(point));
      }
      if (isWord) {
        if (start < 0) {
          start = i;
          foreign = false;
          hash = FNV_OFFSET;
        }
        if (c >= 128) foreign = true;
        else hash = Math.imul(hash ^ c, FNV_PRIME);
        i += width - 1;
        continue;
      }
      if (start < 0) continue;
      const joined = start === previousEnd + 1 && isJoiner(normalized.charCodeAt(previousEnd));
      partsInCompound = joined ? partsInCompound + 1 : 1;
      let current = -1;
      if (i - start > MAX_WORD_LENGTH) {
        // Skipped, and it ends any compound: nothing is joined to what was not kept.
        partsInCompound = 0;
      } else if (foreign) this.#pushForeign(normalized.slice(start, i));
      else {
        current = table.find(normalized, start, i, hash);
        if (current < 0) current = table.add(normalized.slice(start, i), hash);
        scanned.push(current);
        // Only the first two parts: "pre-commit" gives "precommit", "a-b-c" gives nothing new.
        if (partsInCompound === 2 && previous >= 0 && Math.min(table.length[previous]!, table.length[current]!) <= 4) {
          joinedAt?.add(scanned.count);
          scanned.push(table.entry(table.words[previous]! + table.words[current]!));
        }
      }
      previous = current;
      previousEnd = i;
      start = -1;
    }
    return scanned.count;
  }
}
