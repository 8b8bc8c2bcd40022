/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), so "deploying",
 * "deployed" and "deployments" meet at "deploy". Written from the paper's rules, with two of its
 * well-known revisions (-bli to -ble, -logi to -log) and Porter2's step 1c, and preceded by British-to-American
 * spelling folds so "analyse" finds "analyze" and "colour" finds "color".
 */

function isConsonant(word: string, i: number): boolean {
  const ch = word[i];
  if (ch === "a" || ch === "e" || ch === "i" || ch === "o" || ch === "u") return false;
  if (ch === "y") return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** m in the paper: the number of vowel-consonant sequences in `stem`. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o in the paper: consonant-vowel-consonant, the last not w, x or y ("hop", not "snow"). */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  const last = word[n - 1];
  return (
    isConsonant(word, n - 3) &&
    !isConsonant(word, n - 2) &&
    isConsonant(word, n - 1) &&
    last !== "w" &&
    last !== "x" &&
    last !== "y"
  );
}

type Rule = readonly [suffix: string, replacement: string];
/** Rules by the last letter of their suffix, in their order: a word is checked against the few that can end it. */
type RulesByLast = ReadonlyMap<string, readonly Rule[]>;

function byLastLetter(rules: readonly Rule[]): RulesByLast {
  const byLast = new Map<string, Rule[]>();
  for (const rule of rules) {
    const last = rule[0].at(-1)!;
    const list = byLast.get(last);
    if (list) list.push(rule);
    else byLast.set(last, [rule]);
  }
  return byLast;
}

/** Replace the first suffix of `rules` that `word` ends with, when the stem's measure exceeds `minMeasure`. */
function replaceSuffix(word: string, rules: RulesByLast, minMeasure: number): string {
  for (const [suffix, replacement] of rules.get(word.at(-1) ?? "") ?? []) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      return measure(stem) > minMeasure ? stem + replacement : word;
    }
  }
  return word;
}

const STEP2 = byLastLetter([
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
]);

const STEP3 = byLastLetter([
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
]);

// Longest first where one suffix ends another (ement, ment, ent); step 4 removes each.
const STEP4 = byLastLetter(
  [
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
  ]
    .sort((a, b) => b.length - a.length)
    .map((suffix) => [suffix, ""] as const),
);

function step1ab(word: string): string {
  if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("ies")) word = word.slice(0, -2);
  else if (word.endsWith("s") && !word.endsWith("ss")) word = word.slice(0, -1);

  if (word.endsWith("eed")) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  let stem: string | undefined;
  if (word.endsWith("ed") && hasVowel(word.slice(0, -2))) stem = word.slice(0, -2);
  else if (word.endsWith("ing") && hasVowel(word.slice(0, -3))) stem = word.slice(0, -3);
  if (stem === undefined) return word;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return stem + "e";
  if (endsWithDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return stem + "e";
  return stem;
}

function step4(word: string): string {
  for (const [suffix] of STEP4.get(word.at(-1) ?? "") ?? []) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (measure(stem) <= 1) return word;
    if (suffix === "ion" && !/[st]$/.test(stem)) return word;
    return stem;
  }
  return word;
}

function step5(word: string): string {
  if (word.endsWith("e")) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) word = stem;
  }
  if (word.endsWith("ll") && measure(word) > 1) word = word.slice(0, -1);
  return word;
}

/**
 * British spellings folded to American ones, applied to index and queries alike. -ise after v or c
 * is left alone: there it is not the -ize suffix (revise, precise), and folding it would part
 * those words from their -ision nouns.
 */
const SPELLING_FOLDS: readonly (readonly [RegExp, string])[] = [
  [/([a-z]{2}[^vc])is(e|es|ed|er|ers|ing|ation|ations)$/, "$1iz$2"],
  [/(.{2})ys(e|es|ed|er|ers|ing)$/, "$1yz$2"],
  [/(.{3})our(s|ed|ing|ful|ite|ites)?$/, "$1or$2"],
  [/(.{3})ogue(s)?$/, "$1og$2"],
  [/(.{3})tre(s)?$/, "$1ter$2"],
  [/^licenc(e|es|ed|ing)$/, "licens$1"],
];

/** Stem one lower-case word. Words under three letters, and anything but a-z, are left alone. */
export function stem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  for (const [pattern, replacement] of SPELLING_FOLDS) {
    if (pattern.test(word)) {
      word = word.replace(pattern, replacement);
      break;
    }
  }
  word = step1ab(word);
  // Porter2's form of step 1c: y after a vowel stays, so "deploy" meets "deployment".
  if (word.length > 2 && word.endsWith("y") && isConsonant(word, word.length - 2)) word = word.slice(0, -1) + "i";
  word = replaceSuffix(word, STEP2, 0);
  word = replaceSuffix(word, STEP3, 0);
  word = step4(word);
  return step5(word);
}
