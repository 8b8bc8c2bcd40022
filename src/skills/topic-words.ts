/**
 * The words that say what a skill is about, for comparing skills with each other (the summary's
 * examples, doctor's near-duplicates): lower-cased runs of letters and digits of three characters
 * or more, not numbers alone, without the words nearly every description uses ("Use when the user
 * asks to…"). Not
 * the ranker's analysis (no stemming, no synonyms): two descriptions are compared as written.
 */

const STOP_WORDS = new Set(
  (
    "the and for with that this from into your you are can use used uses using when whenever what which " +
    "who will also any all its their them they then than such via per not but how should would could " +
    "skill skills user users asks ask asked wants want need needs help helps task tasks work working " +
    "including include includes other more most etc based about like make makes new one two"
  ).split(" "),
);

/** A letter or digit: a-z, 0-9, or any UTF-16 unit past U+00BF (a Unicode-aware test costs three times as much). */
function isWordUnit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code >= 0xc0;
}

/**
 * The topic words of `text`, in order, repeats kept. A number is no topic (version 2, 300 items).
 * One pass over the character codes: a word is cut out of the text only when it may be kept.
 */
export function topicWords(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let start = -1;
  let digitsOnly = true;
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 32;
    if (isWordUnit(code)) {
      if (start < 0) {
        start = i;
        digitsOnly = true;
      }
      if (code < 48 || code > 57) digitsOnly = false;
      continue;
    }
    if (start < 0) continue;
    if (i - start >= 3 && !digitsOnly) {
      const word = lower.slice(start, i);
      if (!STOP_WORDS.has(word)) words.push(word);
    }
    start = -1;
  }
  return words;
}
