import SearchableMap from "minisearch/SearchableMap";
import { TermList, type TermNumbers } from "./analyze.js";

/**
 * An inverted index scored with BM25F (Robertson, Zaragoza and Taylor, "Simple BM25 extension to
 * multiple weighted fields", 2004): a term's frequencies in each field are weighted and
 * length-normalised per field, summed, and saturated once, so a word found in the name, the
 * description and the body counts a little more than one found in the name alone, not three times
 * as much.
 *
 * The vocabulary lives in MiniSearch's radix tree (SearchableMap) for prefix and typo lookups;
 * postings are typed arrays, one entry per (term, skill), with the term's frequency in each field
 * packed into one integer. docs/search.md has the measurements that led here rather than to a
 * whole search library.
 */

export interface FieldSpec {
  readonly weight: number;
  /** BM25's length normalisation for this field: 0 ignores length, 1 normalises fully. */
  readonly b: number;
  /**
   * A match in this field multiplies the term's saturated score by 1 + bonus (the bonuses of every
   * field it is found in add up), faded for common terms. Saturation flattens field weights (a name
   * match scores little above a body match); the fields that say what a skill is get a bonus
   * saturation cannot take away.
   */
  readonly bonus?: number;
}

/** Per-field frequencies are packed 4 bits each; more than 15 occurrences add nothing after saturation. */
const TF_BITS = 4;
/**
 * How fast the bonus fades with a term's commonness: (idf / idf of an unseen term) ** BONUS_POWER,
 * so a term in 3 of 700 names keeps about half of it and one in 50 about a seventh.
 */
const BONUS_POWER = 2;
const TF_MAX = (1 << TF_BITS) - 1;
/**
 * addAll sizes its lists of (term, document) pairs after this many documents, for the catalog's
 * size with this much to spare; a catalog whose later documents have more distinct terms grows
 * the lists by doubling from there.
 */
const PAIR_SAMPLE = 1024;
const PAIR_HEADROOM = 1.25;
/** A field length that does not fit in two bytes; see InvertedIndex.#lengths. */
const LONG_FIELD = 0xffff;

/**
 * One term's postings: documents and packed frequencies at [start, start + length) of two arrays.
 * Postings laid out by addAll share two arrays with every other term, each term's run sized to
 * fit; the first document added to such a term later moves its run into arrays of its own, grown
 * by doubling from then on.
 */
class Postings {
  docs: Int32Array;
  tfs: Int32Array;
  start: number;
  length: number;
  /** Entries that fit from `start` before the run must move. */
  capacity: number;

  constructor(docs = new Int32Array(2), tfs = new Int32Array(2), start = 0, length = 0, capacity = docs.length) {
    this.docs = docs;
    this.tfs = tfs;
    this.start = start;
    this.length = length;
    this.capacity = capacity;
  }

  push(doc: number, packed: number): void {
    if (this.length === this.capacity) {
      const capacity = Math.max(2, this.length * 2);
      const docs = new Int32Array(capacity);
      docs.set(this.docs.subarray(this.start, this.start + this.length));
      this.docs = docs;
      const tfs = new Int32Array(capacity);
      tfs.set(this.tfs.subarray(this.start, this.start + this.length));
      this.tfs = tfs;
      this.start = 0;
      this.capacity = capacity;
    }
    this.docs[this.start + this.length] = doc;
    this.tfs[this.start + this.length] = packed;
    this.length++;
  }

  /** Documents are numbered in the order they are added, so postings stay sorted and are searched by halves. */
  remove(doc: number): void {
    let lo = this.start;
    let hi = this.start + this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.docs[mid]!;
      if (at === doc) {
        this.docs.copyWithin(mid, mid + 1, this.start + this.length);
        this.tfs.copyWithin(mid, mid + 1, this.start + this.length);
        this.length--;
        return;
      }
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
  }
}

function grown(array: Int32Array, size: number): Int32Array {
  const larger = new Int32Array(size);
  larger.set(array);
  return larger;
}

/** An index's content as flat arrays (InvertedIndex.parts): postings run after run, one run per term. */
export interface IndexParts {
  readonly documents: number;
  /** Each run's term. */
  readonly terms: readonly string[];
  /** Each run's length: how many documents hold its term. */
  readonly frequencies: Int32Array<ArrayBuffer>;
  readonly docs: Int32Array<ArrayBuffer>;
  readonly tfs: Int32Array<ArrayBuffer>;
  /** Each document's length in each field, field after field. */
  readonly lengths: Uint16Array<ArrayBuffer>;
  /** Pairs of (document × fields + field, length) for lengths of LONG_FIELD or more. */
  readonly longFields: Int32Array<ArrayBuffer>;
}

/** One way a query word can match: an indexed term and how much a match through it counts (1 = the word itself). */
export interface Alternative {
  readonly term: string;
  readonly weight: number;
}

export interface ScoredDocs {
  /** Matching documents, in no order (a view of a buffer the next score() reuses), and their summed scores. */
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  /** By document number, the query words each document matched: bit w for the w-th word (at most 32 words). */
  readonly matchedWords: Int32Array;
  /** For each query word, the best score any document got from it. */
  readonly bestPerWord: readonly number[];
  /**
   * For each query word, how rare it is: the largest weighted IDF of its alternatives found in the
   * index, or the IDF of a term no document holds when none is found (a word the catalog does not
   * know is a part of the request no skill covers).
   */
  readonly rarity: readonly number[];
}

interface Weighting {
  readonly base: Float64Array;
  readonly slope: Float64Array;
  readonly weights: Float64Array;
  readonly bonuses: Float64Array;
}

export class InvertedIndex {
  readonly #fields: readonly FieldSpec[];
  readonly #k1: number;
  /** The ranker's term numbers, which the postings are keyed by. */
  readonly #terms: TermNumbers;
  /** By term number. */
  readonly #postings: (Postings | undefined)[] = [];
  /**
   * The terms this index holds, for prefix and typo lookups: made at the first such lookup, as most
   * queries' words are all in the index and need neither, then kept in step with the postings.
   */
  #vocabulary: SearchableMap<true> | undefined;
  /**
   * Each document's length in each field, field after field: lengths[field * #stride + doc]. A
   * term's postings are read in document order and most fall in one field, so the lengths they read
   * lie close together; by document, each posting read a cache line of its own. Two bytes a length
   * keep them closer still: a field of LONG_FIELD terms or more (a hostile description) holds
   * LONG_FIELD there and its length in #longFields.
   */
  #lengths = new Uint16Array(0);
  #stride = 0;
  /** Lengths of LONG_FIELD terms or more, by doc * fields + field. */
  readonly #longFields = new Map<number, number>();
  readonly #lengthSums: Float64Array;
  #live = 0;
  #next = 0;
  #scores = new Float64Array(0);
  #wordScores = new Float64Array(0);
  #matchedWords = new Int32Array(0);
  /**
   * Scratch lists of document numbers for score(), sized to the index: a query that matches most
   * of a large catalog would otherwise grow two arrays element by element, and leave them to the
   * garbage collector, on every search.
   */
  #matched = new Int32Array(0);
  #touched = new Int32Array(0);

  constructor(fields: readonly FieldSpec[], k1: number, terms: TermNumbers) {
    this.#terms = terms;
    if (fields.length * TF_BITS > 31) throw new Error(`at most ${Math.floor(31 / TF_BITS)} fields fit in a posting`);
    this.#fields = fields;
    this.#k1 = k1;
    this.#lengthSums = new Float64Array(fields.length);
  }

  /** Documents in the index. */
  get size(): number {
    return this.#live;
  }

  /** Document numbers handed out so far, removed ones included: what the per-document arrays span. */
  get capacity(): number {
    return this.#next;
  }

  /**
   * Index a document given its numbered terms, field after field (in field order), and where each
   * field's terms end; returns its number.
   */
  add(terms: Int32Array, fieldEnds: ArrayLike<number>): number {
    const doc = this.#next++;
    this.#live++;
    this.#grow(this.#next);
    let start = 0;
    for (let field = 0; field < this.#fields.length; field++) {
      const end = fieldEnds[field]!;
      const unit = 1 << (field * TF_BITS);
      for (let t = start; t < end; t++) {
        const term = terms[t]!;
        let postings = this.#postings[term];
        if (!postings) {
          postings = new Postings();
          this.#postings[term] = postings;
          this.#vocabulary?.set(this.#terms.text(term), true);
        }
        // This document's entry is the last one once it exists: count in place.
        const last = postings.start + postings.length - 1;
        if (postings.length === 0 || postings.docs[last] !== doc) postings.push(doc, unit);
        else if (((postings.tfs[last]! / unit) & TF_MAX) < TF_MAX) postings.tfs[last]! += unit;
      }
      this.#setLength(doc, field, end - start);
      this.#lengthSums[field]! += end - start;
      start = end;
    }
    return doc;
  }

  /**
   * Index `count` documents into an empty index, as `add` would one by one (numbered 0 to count - 1),
   * with `analyse(i, terms)` filling the terms of the i-th and where each field ends. Each document's
   * terms are counted first; then every term's postings are laid out once, in two arrays shared by
   * all terms, instead of being grown term by term.
   */
  addAll(count: number, analyse: (i: number, terms: TermList, fieldEnds: Int32Array) => void): void {
    if (this.#next !== 0) throw new Error("addAll builds an empty index only");
    const fieldCount = this.#fields.length;
    const terms = new TermList();
    const fieldEnds = new Int32Array(fieldCount);
    // Every document's distinct terms with their packed frequencies, document after document.
    const pairTerms = new TermList();
    const pairTfs = new TermList();
    const documentEnds = new Int32Array(count);
    let packedByTerm: Int32Array = new Int32Array(1024);
    let documentFrequency: Int32Array = new Int32Array(1024);
    // Sized to the catalog: the first document added later doubles it.
    this.#grow(count, count);
    for (let doc = 0; doc < count; doc++) {
      terms.length = 0;
      analyse(doc, terms, fieldEnds);
      const firstPair = pairTerms.length;
      let start = 0;
      for (let field = 0; field < fieldCount; field++) {
        const end = fieldEnds[field]!;
        const shift = field * TF_BITS;
        const unit = 1 << shift;
        for (let t = start; t < end; t++) {
          const term = terms.terms[t]!;
          if (term >= packedByTerm.length) {
            const size = Math.max(term + 1, packedByTerm.length * 2);
            packedByTerm = grown(packedByTerm, size);
            documentFrequency = grown(documentFrequency, size);
          }
          const packed = packedByTerm[term]!;
          if (packed === 0) {
            pairTerms.push(term);
            packedByTerm[term] = unit;
          } else if (((packed >>> shift) & TF_MAX) < TF_MAX) packedByTerm[term] = packed + unit;
        }
        this.#setLength(doc, field, end - start);
        this.#lengthSums[field]! += end - start;
        start = end;
      }
      for (let p = firstPair; p < pairTerms.length; p++) {
        const term = pairTerms.terms[p]!;
        pairTfs.push(packedByTerm[term]!);
        packedByTerm[term] = 0;
        documentFrequency[term]!++;
      }
      documentEnds[doc] = pairTerms.length;
      if (doc === PAIR_SAMPLE - 1) {
        // Doubling lists of tens of millions of pairs left each old half to a full collection:
        // once a sample of documents shows how many pairs a document has, they are sized for all.
        const expected = Math.ceil((pairTerms.length / PAIR_SAMPLE) * count * PAIR_HEADROOM);
        pairTerms.reserve(expected);
        pairTfs.reserve(expected);
      }
    }
    this.#next = count;
    this.#live = count;
    this.#layOut(count, pairTerms, pairTfs, documentEnds, documentFrequency, packedByTerm);
  }

  /**
   * addAll's second pass, a method of its own: V8 optimises its loop on its own, where inside
   * addAll's loop-optimised code it was never reached before and threw that code away.
   * Each term's run starts where the previous term's ends; documents are written in order, so
   * every run is sorted. `cursor` is scratch, one entry per term.
   */
  #layOut(
    count: number,
    pairTerms: TermList,
    pairTfs: TermList,
    documentEnds: Int32Array,
    documentFrequency: Int32Array,
    cursor: Int32Array,
  ): void {
    const docs = new Int32Array(pairTerms.length);
    const tfs = new Int32Array(pairTerms.length);
    let offset = 0;
    for (let term = 0; term < documentFrequency.length; term++) {
      const df = documentFrequency[term]!;
      if (df === 0) continue;
      cursor[term] = offset;
      this.#postings[term] = new Postings(docs, tfs, offset, df, df);
      offset += df;
    }
    let pair = 0;
    for (let doc = 0; doc < count; doc++) {
      for (const end = documentEnds[doc]!; pair < end; pair++) {
        const at = cursor[pairTerms.terms[pair]!]!++;
        docs[at] = doc;
        tfs[at] = pairTfs.terms[pair]!;
      }
    }
  }

  /**
   * What the index holds, as flat arrays another process can load instead of building it
   * (index-file.ts); undefined once a document was removed (a saved index is a freshly built one).
   */
  parts(): IndexParts | undefined {
    if (this.#live !== this.#next) return undefined;
    const documents = this.#next;
    const terms: string[] = [];
    const runs: Postings[] = [];
    let pairs = 0;
    this.#postings.forEach((postings, term) => {
      if (!postings) return;
      terms.push(this.#terms.text(term));
      runs.push(postings);
      pairs += postings.length;
    });
    const frequencies = new Int32Array(runs.length);
    const docs = new Int32Array(pairs);
    const tfs = new Int32Array(pairs);
    let at = 0;
    runs.forEach((postings, r) => {
      frequencies[r] = postings.length;
      docs.set(postings.docs.subarray(postings.start, postings.start + postings.length), at);
      tfs.set(postings.tfs.subarray(postings.start, postings.start + postings.length), at);
      at += postings.length;
    });
    const lengths = new Uint16Array(this.#fields.length * documents);
    for (let f = 0; f < this.#fields.length; f++)
      lengths.set(this.#lengths.subarray(f * this.#stride, f * this.#stride + documents), f * documents);
    const longFields = Int32Array.from([...this.#longFields].flat());
    return { documents, terms, frequencies, docs, tfs, lengths, longFields };
  }

  /**
   * Fills an empty index with saved parts, as addAll would have built it; false (the index left
   * empty) when they do not hold together: parts read from disk are input like any other.
   */
  load(parts: IndexParts): boolean {
    if (this.#next !== 0) throw new Error("load fills an empty index only");
    const { documents, terms, frequencies, docs, tfs, lengths, longFields } = parts;
    const fieldCount = this.#fields.length;
    const fieldBits = (1 << (fieldCount * TF_BITS)) - 1;
    if (
      terms.length !== frequencies.length ||
      docs.length !== tfs.length ||
      lengths.length !== fieldCount * documents ||
      longFields.length % 2 !== 0
    )
      return false;
    let at = 0;
    for (const df of frequencies) {
      if (df < 1 || at + df > docs.length) return false;
      for (let i = at; i < at + df; i++) {
        // Sorted, within the documents, and some field counted: what addAll lays out.
        if (
          docs[i]! < (i === at ? 0 : docs[i - 1]! + 1) ||
          docs[i]! >= documents ||
          tfs[i]! <= 0 ||
          (tfs[i]! & ~fieldBits) !== 0
        )
          return false;
      }
      at += df;
    }
    if (at !== docs.length) return false;
    const longs = new Map<number, number>();
    for (let i = 0; i < longFields.length; i += 2) {
      const key = longFields[i]!;
      const doc = Math.floor(key / fieldCount);
      if (
        key < 0 ||
        doc >= documents ||
        longFields[i + 1]! < LONG_FIELD ||
        lengths[(key % fieldCount) * documents + doc] !== LONG_FIELD
      )
        return false;
      longs.set(key, longFields[i + 1]!);
    }
    const numbers = terms.map((term) => (term === "" ? -1 : this.#terms.add(term)));
    if (numbers.includes(-1) || new Set(numbers).size !== numbers.length) return false;
    for (let f = 0; f < fieldCount; f++) {
      for (let doc = 0; doc < documents; doc++) {
        const length = lengths[f * documents + doc]!;
        if (length === LONG_FIELD && !longs.has(doc * fieldCount + f)) return false;
        this.#lengthSums[f]! += length === LONG_FIELD ? longs.get(doc * fieldCount + f)! : length;
      }
    }
    this.#grow(documents, documents);
    this.#lengths = lengths;
    for (const [key, length] of longs) this.#longFields.set(key, length);
    at = 0;
    numbers.forEach((term, r) => {
      const df = frequencies[r]!;
      this.#postings[term] = new Postings(docs, tfs, at, df, df);
      at += df;
    });
    this.#next = documents;
    this.#live = documents;
    return true;
  }

  /** Remove a document, given the same terms it was added with. */
  remove(doc: number, terms: Int32Array, fieldEnds: ArrayLike<number>): void {
    this.#live--;
    let start = 0;
    for (let field = 0; field < this.#fields.length; field++) {
      const end = fieldEnds[field]!;
      this.#lengthSums[field]! -= this.#length(doc, field);
      this.#setLength(doc, field, 0);
      for (const term of new Set(terms.subarray(start, end))) {
        const postings = this.#postings[term];
        if (!postings) continue;
        postings.remove(doc);
        if (postings.length === 0) {
          this.#postings[term] = undefined;
          this.#vocabulary?.delete(this.#terms.text(term));
        }
      }
      start = end;
    }
  }

  #lookup(term: string): Postings | undefined {
    const id = this.#terms.number(term);
    return id === undefined ? undefined : this.#postings[id];
  }

  #words(): SearchableMap<true> {
    if (!this.#vocabulary) {
      const vocabulary = new SearchableMap<true>();
      for (let term = 0; term < this.#postings.length; term++)
        if (this.#postings[term]) vocabulary.set(this.#terms.text(term), true);
      this.#vocabulary = vocabulary;
    }
    return this.#vocabulary;
  }

  has(term: string): boolean {
    return this.#lookup(term) !== undefined;
  }

  /** Indexed terms that start with `prefix` (itself excluded), at most `limit`, shortest first. */
  completions(prefix: string, limit: number): string[] {
    const found: string[] = [];
    for (const term of this.#words().atPrefix(prefix).keys()) {
      if (term !== prefix) found.push(term);
    }
    return found.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).slice(0, limit);
  }

  /** Indexed terms within `distance` edits of `term` (itself excluded), with their distance. */
  similar(term: string, distance: number): [string, number][] {
    const found: [string, number][] = [];
    for (const [candidate, [, d]] of this.#words().fuzzyGet(term, distance)) {
      if (candidate !== term) found.push([candidate, d]);
    }
    return found;
  }

  /** Inverse document frequency of a term held by `df` of the index's documents. */
  idf(df: number): number {
    const n = this.#live;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Score every document that matches any query word. A word's alternatives (itself, synonyms,
   * completions, corrections) do not add up: a document gets the best of them, so a word counts
   * once however many of its forms a skill uses.
   */
  score(words: readonly (readonly Alternative[])[]): ScoredDocs {
    if (words.length > 32) throw new Error("at most 32 query words fit in a document's matched-word bits");
    const n = this.#live;
    const unknownRarity = this.idf(0);
    const scores = this.#scores;
    const wordScores = this.#wordScores;
    const matchedWords = this.#matchedWords;
    const matched = this.#matched;
    const touched = this.#touched;
    let matchedCount = 0;
    const bestPerWord: number[] = [];
    const rarity: number[] = [];
    const weighting = this.#weighting(n);
    for (let w = 0; w < words.length; w++) {
      const bit = 1 << w;
      const found: { postings: Postings; weight: number; idf: number }[] = [];
      let wordRarity = 0;
      for (const { term, weight } of words[w]!) {
        const postings = this.#lookup(term);
        if (!postings) continue;
        const idf = this.idf(postings.length);
        if (weight * idf > wordRarity) wordRarity = weight * idf;
        found.push({ postings, weight, idf });
      }
      if (wordRarity === 0) wordRarity = unknownRarity;
      let best = 0;
      if (found.length === 1) {
        // One way to match (most words): each document's score for the word is its one posting's,
        // added straight to its sum.
        const { postings, weight, idf } = found[0]!;
        const weightedIdf = weight * idf;
        const rareness = (idf / unknownRarity) ** BONUS_POWER;
        const { docs: ids, tfs } = postings;
        for (let i = postings.start, end = postings.start + postings.length; i < end; i++) {
          const doc = ids[i]!;
          const s = this.#postingScore(weighting, weightedIdf, rareness, doc, tfs[i]!);
          const previous = scores[doc]!;
          if (previous === 0) matched[matchedCount++] = doc;
          scores[doc] = previous + s;
          matchedWords[doc]! |= bit;
          if (s > best) best = s;
        }
      } else if (found.length > 1) {
        // Each document gets the best of the word's alternatives, gathered before they are added.
        let touchedCount = 0;
        for (const { postings, weight, idf } of found) {
          const weightedIdf = weight * idf;
          // The bonus goes to rare terms: a name word most skills share ("data", "tools") says little.
          const rareness = (idf / unknownRarity) ** BONUS_POWER;
          const { docs: ids, tfs } = postings;
          for (let i = postings.start, end = postings.start + postings.length; i < end; i++) {
            const doc = ids[i]!;
            const s = this.#postingScore(weighting, weightedIdf, rareness, doc, tfs[i]!);
            const previous = wordScores[doc]!;
            if (previous === 0) touched[touchedCount++] = doc;
            if (s > previous) wordScores[doc] = s;
          }
        }
        for (let t = 0; t < touchedCount; t++) {
          const doc = touched[t]!;
          const s = wordScores[doc]!;
          wordScores[doc] = 0;
          if (scores[doc] === 0) matched[matchedCount++] = doc;
          matchedWords[doc]! |= bit;
          scores[doc]! += s;
          if (s > best) best = s;
        }
      }
      bestPerWord.push(best);
      rarity.push(wordRarity);
    }
    return { docs: matched.subarray(0, matchedCount), scores, matchedWords, bestPerWord, rarity };
  }

  /** The per-field constants of BM25F for an index of `n` documents. */
  #weighting(n: number): Weighting {
    const averages = this.#fields.map((_, f) => (n > 0 ? this.#lengthSums[f]! / n : 0) || 1);
    // Per field: weight / (1 - b + b * length / average) = weight / (base + slope * length).
    return {
      base: Float64Array.from(this.#fields, (spec) => 1 - spec.b),
      slope: Float64Array.from(this.#fields, (spec, f) => spec.b / averages[f]!),
      weights: Float64Array.from(this.#fields, (spec) => spec.weight),
      bonuses: Float64Array.from(this.#fields, (spec) => spec.bonus ?? 0),
    };
  }

  /** One posting's BM25F score: `packed` holds the document's frequency of the term in each field. */
  #postingScore(weighting: Weighting, weightedIdf: number, rareness: number, doc: number, packed: number): number {
    const { base, slope, weights, bonuses } = weighting;
    const lengths = this.#lengths;
    const stride = this.#stride;
    let tf = 0;
    let bonus = 0;
    // Field by field in order, jumping over the empty ones: most postings fill one or two.
    while (packed !== 0) {
      const f = ((31 - Math.clz32(packed & -packed)) / TF_BITS) | 0;
      const shift = f * TF_BITS;
      const count = (packed >>> shift) & TF_MAX;
      packed &= ~(TF_MAX << shift);
      let length = lengths[f * stride + doc]!;
      if (length === LONG_FIELD) length = this.#length(doc, f);
      tf += (weights[f]! * count) / (base[f]! + slope[f]! * length);
      bonus += bonuses[f]!;
    }
    const k1 = this.#k1;
    let s = (weightedIdf * tf * (k1 + 1)) / (tf + k1);
    if (bonus !== 0) s *= 1 + bonus * rareness;
    return s;
  }

  /** Clear what score() left in its buffers; call once done reading its result. */
  release(result: ScoredDocs): void {
    for (const doc of result.docs) {
      this.#scores[doc] = 0;
      this.#matchedWords[doc] = 0;
    }
  }

  #setLength(doc: number, field: number, length: number): void {
    const key = doc * this.#fields.length + field;
    if (length >= LONG_FIELD) this.#longFields.set(key, length);
    else if (this.#lengths[field * this.#stride + doc] === LONG_FIELD) this.#longFields.delete(key);
    this.#lengths[field * this.#stride + doc] = Math.min(length, LONG_FIELD);
  }

  #length(doc: number, field: number): number {
    const length = this.#lengths[field * this.#stride + doc]!;
    return length === LONG_FIELD ? this.#longFields.get(doc * this.#fields.length + field)! : length;
  }

  #grow(needed: number, capacity = Math.max(64, needed * 2)): void {
    if (needed <= this.#stride) return;
    const lengths = new Uint16Array(capacity * this.#fields.length);
    for (let f = 0; f < this.#fields.length; f++) {
      lengths.set(this.#lengths.subarray(f * this.#stride, (f + 1) * this.#stride), f * capacity);
    }
    this.#lengths = lengths;
    this.#stride = capacity;
    const scores = new Float64Array(capacity);
    this.#scores = scores;
    this.#wordScores = new Float64Array(capacity);
    this.#matchedWords = new Int32Array(capacity);
    this.#matched = new Int32Array(capacity);
    this.#touched = new Int32Array(capacity);
  }
}
