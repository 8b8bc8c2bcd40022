/**
 * The words that say what a skill is about, for comparing skills with each other (the summary's
 * examples, doctor's near-duplicates): lower-cased runs of letters and digits of three characters
 * or more, not numbers alone, without the words nearly every description uses ("Use when the user
 * asks to…"). Not
 * the ranker's analysis (no stemming, no synonyms): two descriptions are compared as written.
 */

/** Anything past ASCII counts as a letter: a Unicode-aware pattern costs three times as much. */
const WORD = /[a-z0-9\u00c0-\uffff]+/g;

const STOP_WORDS = new Set(
  (
    "the and for with that this from into your you are can use used uses using when whenever what which " +
    "who will also any all its their them they then than such via per not but how should would could " +
    "skill skills user users asks ask asked wants want need needs help helps task tasks work working " +
    "including include includes other more most etc based about like make makes new one two"
  ).split(" "),
);

/** The topic words of `text`, in order, repeats kept. A number is no topic (version 2, 300 items). */
export function topicWords(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter(
    (word) => word.length >= 3 && !STOP_WORDS.has(word) && !/^\d+$/.test(word),
  );
}
