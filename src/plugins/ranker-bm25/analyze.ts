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
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
/** Letters, digits and the combining marks of decomposed letters. */
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
/** What may join the parts of one compound word: next.js, pre-commit, snake_case, ci/cd. */
const JOINERS = "._-/";

function normalize(text: string): string {
  let folded = text.toLowerCase();
  // Each rewrite scans the whole text, so it runs only when its trigger character is there.
  if (folded.includes("'") || folded.includes("’")) folded = folded.replace(/['’]s\b/g, "");
  if (folded.includes("+")) folded = folded.replace(/\bc\+\+/g, "cpp");
  if (folded.includes("#")) folded = folded.replace(/\b([cf])#/g, "$1sharp");
  if (folded.includes(".net")) folded = folded.replace(/(^|[^a-z0-9])\.net\b/g, "$1dotnet");
  return folded;
}

/**
 * Index terms are numbered once per process, so an index keys its postings by number: indexing a
 * word costs an array access instead of hashing the word again. Only indexing numbers terms, so
 * the table holds the vocabulary of the skills indexed; a stream of new query words cannot grow it.
 */
const termNumbers = new Map<string, number>();
const termTexts: string[] = [];

function numberTerm(term: string): number {
  let id = termNumbers.get(term);
  if (id === undefined) {
    id = termTexts.length;
    termTexts.push(term);
    termNumbers.set(term, id);
  }
  return id;
}

/** The number of an indexed term, if any index ever held it. */
export function termNumber(term: string): number | undefined {
  return termNumbers.get(term);
}

export function termText(id: number): string {
  return termTexts[id]!;
}

/** What one written word contributes: its stem (none for a stop word), its synonym concept, the synonym phrases it starts. */
interface WordInfo {
  readonly word: string;
  readonly term: string | undefined;
  /** The stem's number, assigned the first time a document uses the word. */
  termId: number;
  readonly folded: string;
  readonly concept: { readonly text: string; readonly id: number } | undefined;
  readonly phrases: readonly Phrase[] | undefined;
}
interface Phrase {
  readonly rest: readonly string[];
  readonly concept: { readonly text: string; readonly id: number };
}

const SYNONYMS = (() => {
  const table = buildSynonymTable(SYNONYM_SETS, (phrase) => phrase.split(" "));
  const concept = (text: string) => ({ text, id: numberTerm(text) });
  return {
    words: new Map([...table.words].map(([word, text]) => [word, concept(text)])),
    phrases: new Map(
      [...table.phrases].map(([first, list]) => [first, list.map(({ rest, concept: text }): Phrase => ({ rest, concept: concept(text) }))]),
    ),
  };
})();

/**
 * A catalog repeats a few thousand words many times over, so each word is looked at once.
 * Bounded, so hostile queries cannot grow it without end.
 */
const WORD_CACHE_LIMIT = 200_000;
const wordCache = new Map<string, WordInfo>();

function wordInfo(word: string): WordInfo {
  let info = wordCache.get(word);
  if (info === undefined) {
    const folded = foldPlural(word);
    const term = STOP_WORDS.has(word) ? undefined : stem(word);
    info = {
      word,
      term,
      termId: term === undefined ? -1 : (termNumbers.get(term) ?? -1),
      folded,
      concept: SYNONYMS.words.get(folded),
      phrases: SYNONYMS.phrases.get(folded),
    };
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
    wordCache.set(word, info);
  }
  return info;
}

/** Accents dropped ("café" is "cafe"); Chinese, Japanese and Korean runs cut into overlapping pairs. */
function pushForeign(part: string, out: WordInfo[]): void {
  const folded = part.normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFC");
  if (!CJK.test(folded)) {
    if (folded) out.push(wordInfo(folded));
    return;
  }
  for (const run of folded.matchAll(CJK_RUNS)) {
    const chars = [...run[0]];
    if (!CJK.test(chars[0]!)) out.push(wordInfo(run[0]));
    else if (chars.length === 1) out.push(wordInfo(chars[0]!));
    else for (let i = 0; i + 1 < chars.length; i++) out.push(wordInfo(chars[i]! + chars[i + 1]!));
  }
}

/**
 * The words of a text as written (lower-cased, unstemmed), each two-part compound followed by its
 * joined form. Character codes are scanned directly: ASCII decides in a comparison, and only the
 * rare other characters go through a Unicode regex.
 */
function wordInfos(text: string, joinedAt?: Set<number>): WordInfo[] {
  const out: WordInfo[] = [];
  const normalized = normalize(text);
  const n = normalized.length;
  let start = -1;
  let foreign = false;
  let previous: WordInfo | undefined;
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
      }
      if (c >= 128) foreign = true;
      i += width - 1;
      continue;
    }
    if (start < 0) continue;
    const joined = start === previousEnd + 1 && JOINERS.includes(normalized[previousEnd]!);
    partsInCompound = joined ? partsInCompound + 1 : 1;
    let current: WordInfo | undefined;
    if (i - start > MAX_WORD_LENGTH) {
      // Skipped, and it ends any compound: nothing is joined to what was not kept.
      partsInCompound = 0;
    } else if (foreign) pushForeign(normalized.slice(start, i), out);
    else {
      current = wordInfo(normalized.slice(start, i));
      out.push(current);
      // Only the first two parts: "pre-commit" gives "precommit", "a-b-c" gives nothing new.
      if (partsInCompound === 2 && previous && Math.min(previous.word.length, current.word.length) <= 4) {
        joinedAt?.add(out.length);
        out.push(wordInfo(previous.word + current.word));
      }
    }
    previous = current;
    previousEnd = i;
    start = -1;
  }
  return out;
}

/** Whether `phrase` continues at infos[i + 1]. */
function continues(infos: readonly WordInfo[], i: number, phrase: Phrase): boolean {
  for (let j = 0; j < phrase.rest.length; j++) if (infos[i + 1 + j]?.folded !== phrase.rest[j]) return false;
  return true;
}

/** One word of a text: its stem (none for a stop word) and the concepts it starts. */
export interface AnalysedWord {
  readonly term: string | undefined;
  readonly concepts: readonly string[];
  /** For a compound's joined form ("nextjs"), its parts, which the text also lists just before it. */
  readonly parts?: readonly AnalysedWord[];
}

/**
 * The words of a query in order, with the concept terms of the synonym words and phrases they
 * start. A compound ("next.js") is one word: its joined form, carrying its parts, replaces them, so
 * one word the user wrote never counts as three.
 */
export function analyzeWords(text: string): AnalysedWord[] {
  const joinedAt = new Set<number>();
  const infos = wordInfos(text, joinedAt);
  const out: (AnalysedWord | undefined)[] = [];
  for (let i = 0; i < infos.length; i++) {
    const { term, concept } = infos[i]!;
    const concepts: string[] = concept ? [concept.text] : [];
    for (const phrase of infos[i]!.phrases ?? []) if (continues(infos, i, phrase)) concepts.push(phrase.concept.text);
    const word = term !== undefined || concepts.length > 0 ? { term, concepts } : undefined;
    if (joinedAt.has(i)) {
      const parts = out.splice(-2).filter((part): part is AnalysedWord => part !== undefined);
      out.push(word ? { ...word, parts } : undefined);
    } else out.push(word);
  }
  return out.filter((word): word is AnalysedWord => word !== undefined);
}

/** The numbered index terms of a document's text, in order, repeated as often as they occur. */
export function indexTerms(text: string): number[] {
  const infos = wordInfos(text);
  const terms: number[] = [];
  for (let i = 0; i < infos.length; i++) {
    const info = infos[i]!;
    if (info.term !== undefined) {
      if (info.termId < 0) info.termId = numberTerm(info.term);
      terms.push(info.termId);
    }
    if (info.concept !== undefined) terms.push(info.concept.id);
    if (info.phrases) for (const phrase of info.phrases) if (continues(infos, i, phrase)) terms.push(phrase.concept.id);
  }
  return terms;
}
