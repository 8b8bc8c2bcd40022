/**
 * What a skill says about itself beyond its description, read from the start of its body: the
 * headings (an outline of what it covers), the "when to use" section (when it applies, in the
 * author's words) and the abbreviations its own text spells out, so that a query can use "GSC"
 * for a skill that only says "Google Search Console", or "pdr" for "pdf-document-reader".
 */

/** A heading says what a section is about; longer lines are prose set as a heading. */
const MAX_HEADING_CHARS = 120;
/** How much of a "when to use" section counts: its list of situations, not the whole body. */
const MAX_SECTION_CHARS = 600;
/** Abbreviations are 3 to 6 letters: two letters collide with words and with each other ("ad", "pt"). */
const MIN_INITIALS = 3;
const MAX_INITIALS = 6;
/** Short words inside a name that an abbreviation may or may not spell: "Infrastructure as Code" is IaC or IC. */
const CONNECTORS = new Set(["of", "and", "for", "the", "to", "in", "on", "as", "a", "an", "&"]);

/** A heading at `lastIndex`, which is where a line starts. */
const HEADING_AT = /#{1,6}[ \t]+(.+?)[ \t#]*$/my;
const WHEN_TO_USE =
  /^(?:when\s+to\s+(?:use|apply|invoke)|use\s+(?:this\s+skill\s+)?when|when\s+this\s+skill\s+applies|use\s+cases|triggers?)\b/i;

export interface Outline {
  /** The headings, one per line. */
  readonly headings: string;
  /** The text of the "when to use" sections, cut short. */
  readonly whenToUse: string;
}

/** The headings and "when to use" sections of markdown, fenced code left out by the caller. */
export function outline(markdown: string): Outline {
  const headings: string[] = [];
  const sections: string[] = [];
  const matches = headingsOf(markdown);
  matches.forEach((match, i) => {
    const heading = match[1]!.replace(/[*_`]/g, "").trim();
    if (heading.length === 0 || heading.length > MAX_HEADING_CHARS) return;
    headings.push(heading);
    if (WHEN_TO_USE.test(heading)) {
      const start = match.index + match[0].length;
      const end = matches[i + 1]?.index ?? markdown.length;
      sections.push(markdown.slice(start, Math.min(end, start + MAX_SECTION_CHARS)));
    }
  });
  return { headings: headings.join("\n"), whenToUse: sections.join("\n") };
}

/**
 * The matches of /^#{1,6}[ \t]+(.+?)[ \t#]*$/gm, found by looking only where a "#" starts a line:
 * a multiline ^ makes the engine try every position of the text.
 */
function headingsOf(markdown: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  for (let at = markdown.indexOf("#"); at !== -1; at = markdown.indexOf("#", at + 1)) {
    if (at > 0 && !isLineBreak(markdown.charCodeAt(at - 1))) continue;
    HEADING_AT.lastIndex = at;
    const match = HEADING_AT.exec(markdown);
    if (!match) continue;
    matches.push(match);
    at = match.index + match[0].length - 1;
  }
  return matches;
}

/** What ends a line for a multiline ^ and $: \n, \r, U+2028 and U+2029. */
function isLineBreak(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

/** Whether a word is a connector: none is longer than three letters, so longer words need no lower-casing. */
function isConnector(word: string): boolean {
  return word.length <= 3 && CONNECTORS.has(word.toLowerCase());
}

/**
 * The initials of words[from, to), with and without their connectors, when long enough to be an
 * abbreviation. Fewer than MIN_INITIALS words have too few initials either way.
 */
function initialsOf(words: readonly string[], from: number, to: number, into: Set<string>): void {
  if (to - from < MIN_INITIALS) return;
  let all = "";
  let content = "";
  for (let i = from; i < to; i++) {
    const word = words[i]!;
    all += word[0]!;
    if (!isConnector(word)) content += word[0]!;
  }
  for (const initials of [all, content]) {
    if (initials.length >= MIN_INITIALS && initials.length <= MAX_INITIALS) into.add(initials.toLowerCase());
  }
}

/** Every run of 3 to 6 consecutive words, ending and starting with a content word. */
function windowsOf(words: readonly string[], into: Set<string>): void {
  for (let start = 0; start < words.length; start++) {
    if (isConnector(words[start]!)) continue;
    for (let end = start + 2; end <= Math.min(words.length, start + MAX_INITIALS); end++) {
      if (isConnector(words[end - 1]!)) continue;
      initialsOf(words, start, end, into);
    }
  }
}

/** Initials of a skill's name ("google-search-console-audit" gives gsca, gsc, sca). */
export function nameAbbreviations(name: string): string[] {
  const found = new Set<string>();
  const parts = name.split(/[-_\s.]+/).filter((part) => /^[a-z0-9]/i.test(part));
  if (parts.length <= 8) windowsOf(parts, found);
  return [...found];
}

/**
 * Two or more capitalised words in a row, a space, a hyphen or one connector between them
 * ("Google Search Console", "Infrastructure as Code"). The engine scans for the capitals natively;
 * a run of three words or more is kept.
 */
const CAPITALISED_RUN =
  /[A-Z][A-Za-z0-9]*(?:(?:[ \t-]+|[ \t]+(?:of|and|for|the|to|in|on|as|a|an|&)[ \t]+)[A-Z][A-Za-z0-9]*)+/g;

function capitalisedRuns(text: string): string[][] {
  const runs: string[][] = [];
  for (const match of text.matchAll(CAPITALISED_RUN)) {
    // Part of a longer word ("macOS Ventura") is no name's start.
    const before = match.index > 0 ? text.charCodeAt(match.index - 1) : 32;
    if ((before >= 97 && before <= 122) || (before >= 48 && before <= 57) || wordCount(match[0]) < 3) continue;
    runs.push(match[0].split(/[ \t-]+/));
  }
  return runs;
}

/** How many words split(/[ \t-]+/) cuts a run into, counted without cutting: most runs are two. */
function wordCount(run: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    const separator = c === 32 || c === 9 || c === 45;
    if (!separator && !inWord) count++;
    inWord = !separator;
  }
  return count;
}

// A form defined in the text: "role-based access control (RBAC)"; the words before it are read separately.
const DEFINED = /\(([A-Z][A-Za-z]{1,5})s?\)/g;
/** How far back from "(RBAC)" the words it abbreviates are looked for. */
const DEFINITION_REACH = 80;

/** The abbreviations a text spells out: initials of its capitalised names, and the forms it defines in parentheses. */
export function textAbbreviations(text: string): string[] {
  const found = new Set<string>();
  for (const words of capitalisedRuns(text)) {
    // The whole run, and the run without its first word, which may only be capitalised because
    // it starts a sentence ("Use Google Search Console").
    initialsOf(words, 0, words.length, found);
    let rest = 1;
    while (rest < words.length && isConnector(words[rest]!)) rest++;
    initialsOf(words, rest, words.length, found);
  }
  if (text.includes("(")) {
    for (const match of text.matchAll(DEFINED)) {
      const acronym = match[1]!.toLowerCase();
      const words = text
        .slice(Math.max(0, match.index - DEFINITION_REACH), match.index)
        .split(/[^A-Za-z0-9]+/)
        .filter((w) => w.length > 0);
      // The definition holds when the acronym is the initials of the words just before it.
      for (let k = Math.min(words.length, 7); k >= 2; k--) {
        const tail = words.slice(-k);
        const initials = tail.map((w) => w[0]!.toLowerCase()).join("");
        const content = tail
          .filter((w) => !isConnector(w))
          .map((w) => w[0]!.toLowerCase())
          .join("");
        if (initials === acronym || content === acronym) {
          found.add(acronym);
          break;
        }
      }
    }
  }
  return [...found];
}
