import confusables from "unhomoglyph/data.json" with { type: "json" };
import { lineEnd } from "./file-units.js";

/*
 * Text as an agent understands it, for rules to match: invisible characters dropped, look-alike
 * letters and full-width forms folded to ASCII, inline encodings decoded, words split by empty
 * quotes or string concatenation joined. Each line stays one line, so a finding's line is the
 * line in the file.
 */

/** Characters a reader does not see (Unicode Default_Ignorable): zero-width, bidirectional controls, variation selectors, tags. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Letters and digits that look like ASCII ones: full-width and other compatibility forms (NFKC),
 * then Unicode's confusables (UTS #39, via unhomoglyph's copy of confusables.txt). Only letters
 * and digits are folded, so punctuation and scripts without look-alikes stay as they are. The
 * prototype of I, l and 1 is "l": an upper-case look-alike folds to "I".
 */
const FOLD = new Map<string, string>();
for (const [from, to] of Object.entries(confusables as Record<string, string>)) {
  if (/^[A-Za-z0-9]+$/.test(to) && /^[^\x00-\x7F]$/u.test(from) && /\p{L}|\p{N}/u.test(from))
    FOLD.set(from, to === "l" && from.toLowerCase() !== from ? "I" : to);
}
/** Compatibility forms of ASCII letters and digits: full-width, mathematical, circled, superscript. */
const COMPATIBLE = String.raw`\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\u{1D400}-\u{1D7FF}\u2460-\u24FF\u00B2\u00B3\u00B9\u2070-\u209F\u2100-\u214F`;
const escapeClass = (char: string) => (/[\\\]^-]/.test(char) ? `\\${char}` : char);
/** The characters fold changes; CJK and other scripts without look-alikes are not among them. */
const FOLDABLE_CLASS = `[${[...FOLD.keys()].map(escapeClass).join("")}${COMPATIBLE}]`;
const FOLDABLE = new RegExp(FOLDABLE_CLASS, "gu");

function foldChar(char: string): string {
  const compatible = char.normalize("NFKC");
  return /^[A-Za-z0-9]$/.test(compatible) ? compatible : (FOLD.get(char) ?? char);
}

/** How many times nested encodings are undone. */
const MAX_DECODE_DEPTH = 3;
/** Runs shorter than this are too short to hold an instruction or a command. */
const MIN_BASE64 = 20;
const BASE64 = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){10,}(?![0-9A-Fa-f])/g;
const ESCAPES =
  /\\x[0-9A-Fa-f]{2}|\\u\{[0-9A-Fa-f]{1,6}\}|\\u[0-9A-Fa-f]{4}|&#x[0-9A-Fa-f]{1,6};|&#[0-9]{1,7};|(?:%[0-9A-Fa-f]{2}){3,}/g;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decoded bytes as text, when they read as text: printable, with a space or a command's punctuation. */
function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  // Control characters other than tab and line breaks mean binary (a hash, a key, an image).
  if (/[\x00-\x08\x0E-\x1F\x7F]/.test(text) || !/[\s;|/.]/.test(text)) return undefined;
  const letters = text.match(/[\p{L}\s]/gu)?.length ?? 0;
  return letters >= text.length * 0.6 ? text.replace(/\r?\n/g, " ") : undefined;
}

function decodeBase64(run: string): string | undefined {
  if (run.length < MIN_BASE64 || !/[a-z]/.test(run) || !/[A-Z]/.test(run)) return undefined;
  return asText(Buffer.from(run, "base64"));
}

function decodeEscape(escape: string): string {
  if (escape.startsWith("%")) {
    try {
      return decodeURIComponent(escape);
    } catch {
      return escape;
    }
  }
  const hex = /^\\x|^\\u\{?|^&#x/.test(escape);
  const digits = escape.replace(/^\\x|^\\u\{?|^&#x?|[};]$/g, "").replace(/[};]$/, "");
  const code = Number.parseInt(digits, hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff && code !== 10 && code !== 13 ? String.fromCodePoint(code) : escape;
}

/** One line with its inline encodings decoded, nested ones up to MAX_DECODE_DEPTH. */
function decodeLine(line: string): string {
  let current = line;
  for (let depth = 0; depth < MAX_DECODE_DEPTH; depth++) {
    const next = current
      .replace(ESCAPES, decodeEscape)
      .replace(BASE64, (run) => decodeBase64(run) ?? run)
      .replace(HEX_RUN, (run) => asText(Buffer.from(run, "hex")) ?? run);
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Words split to dodge a pattern: `cu''rl`, `c""u""rl`, `c\url`, `"cu" + "rl"`. */
function joinSplitWords(line: string): string {
  return line
    .replace(/(?<=\w)(?:''|"")+(?=\w)/g, "")
    .replace(/(?<=\w)\\(?=[a-z])/g, "")
    .replace(/(["'])\s*\+\s*\1/g, "");
}

function fold(line: string): string {
  return line.replace(FOLDABLE, foldChar);
}

/**
 * What may need normalising, besides a long run: a non-ASCII character, an escape, a split word.
 * Each branch starts at a rare character (a line matched needlessly only costs a look at it),
 * and the look-alike class, slow to scan, is tried only on the non-ASCII runs found.
 */
const SUSPECT = /[^\x00-\x7F]+|\\[a-z]|&#|%[0-9A-Fa-f]{2}|''|""|["']\s*\+\s*["']/g;
/** A look-alike or an invisible character in the run of non-ASCII characters this is tried at (sticky). */
const SUSPECT_IN_RUN = new RegExp(
  String.raw`[^\x00-\x7F]*?(?:${FOLDABLE_CLASS}|\p{Default_Ignorable_Code_Point})`,
  "uy",
);

/** ASCII codes that may be part of a base64 or hex run. */
const RUN_CHARACTER = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  RUN_CHARACTER[char.charCodeAt(0)] = 1;
const inRun = (text: string, at: number) => RUN_CHARACTER[text.charCodeAt(at)] === 1;

/**
 * Where runs of MIN_BASE64 or more base64 characters start. A regex would try every letter of
 * the text; this looks at one character in MIN_BASE64, and around it only when it is in a run.
 */
function longRunStarts(text: string): number[] {
  const starts: number[] = [];
  let at = MIN_BASE64 - 1;
  while (at < text.length) {
    if (!inRun(text, at)) {
      at += MIN_BASE64;
      continue;
    }
    let start = at;
    while (start > 0 && inRun(text, start - 1)) start--;
    let end = at + 1;
    while (end < text.length && inRun(text, end)) end++;
    if (end - start >= MIN_BASE64) starts.push(start);
    at = end + MIN_BASE64;
  }
  return starts;
}

/*
 * Letters rotated through the alphabet (rot13 and the other Caesar shifts), which a model reads
 * as easily as plain text and a reviewer does not. A line is decoded when, rotated back, more of
 * its words are common English words than as written: code and other languages stay as they are.
 */
/** The most frequent English words: a line of rotated text holds some of them, rotated. */
const FREQUENT_WORDS = "the and you all".split(" ");
const COMMON_WORDS = [
  ...FREQUENT_WORDS,
  ..."your for this that with are not from have will into then them any must now every what when only never always before after".split(
    " ",
  ),
  ..."previous prior instructions ignore rules system prompt follow user file files run send delete home secret tell".split(
    " ",
  ),
];
const ENGLISH = new Set(COMMON_WORDS);
const rotate = (text: string, shift: number) =>
  text.replace(/[a-z]/gi, (char) => {
    const base = char <= "Z" ? 65 : 97;
    return String.fromCharCode(((char.charCodeAt(0) - base + shift + 26) % 26) + base);
  });
/** Each common word rotated by each shift, to the shift (a rotation that spells another common word is left out). */
const ROTATED = new Map<string, number>();
for (let shift = 1; shift < 26; shift++)
  for (const word of COMMON_WORDS) if (!ENGLISH.has(rotate(word, shift))) ROTATED.set(rotate(word, shift), shift);
/** A line holding none of the frequent words, rotated, is not looked at further. */
const ROTATED_TRIGGER = new RegExp(
  String.raw`\b(?:${FREQUENT_WORDS.flatMap((word) => Array.from({ length: 25 }, (_, i) => rotate(word, i + 1)))
    .filter((rotated) => ROTATED.has(rotated))
    .join("|")})\b`,
  "gi",
);
/** Rotated common words a line must hold before it is decoded. */
const MIN_ROTATED_WORDS = 2;

/** The shift that rotates `line` back to English, or 0 when it reads as written. */
function caesarShift(line: string): number {
  const counts = new Map<number, number>();
  let english = 0;
  for (const word of line.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (ENGLISH.has(word)) english++;
    const shift = ROTATED.get(word);
    if (shift !== undefined) counts.set(shift, (counts.get(shift) ?? 0) + 1);
  }
  let best = 0;
  let most = Math.max(english, MIN_ROTATED_WORDS - 1);
  for (const [shift, count] of counts) if (count > most) [best, most] = [shift, count];
  return best;
}

/** Where lines of rotated text start, with the shift that undoes them. */
function rotatedLines(text: string): Map<number, number> {
  const found = new Map<number, number>();
  ROTATED_TRIGGER.lastIndex = 0;
  for (let match = ROTATED_TRIGGER.exec(text); match; match = ROTATED_TRIGGER.exec(text)) {
    const start = text.lastIndexOf("\n", match.index) + 1;
    const end = text.indexOf("\n", match.index);
    const shift = caesarShift(text.slice(start, end === -1 ? text.length : end));
    if (shift !== 0) found.set(start, shift);
    if (end === -1) break;
    ROTATED_TRIGGER.lastIndex = end;
  }
  return found;
}

/** Lines that give markdown its structure: kept when other unchanged lines are blanked. Sticky: tried at a line's start. */
const STRUCTURE = /(?: {0,3}(?:`{3,}|~{3,})|---|\.\.\.)/y;

/** A line that reads differently once normalised: where it starts and ends (its line feed or the text's end), and how it reads. */
interface ChangedLine {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `text` with each changed line (in order) replaced; with `onlyChanged`, every other line left
 * empty but those that give markdown its structure. `text` itself when no line changed. Built
 * from the changed lines and what lies between them, not from the text split into lines.
 */
function withChangedLines(text: string, changed: readonly ChangedLine[], onlyChanged: boolean): string {
  if (changed.length === 0) return text;
  const parts: string[] = [];
  if (!onlyChanged) {
    let kept = 0;
    for (const line of changed) {
      parts.push(text.slice(kept, line.start), line.text);
      kept = line.end;
    }
    parts.push(text.slice(kept));
    return parts.join("");
  }
  let next = 0;
  let breaks = 0;
  for (let start = 0; ; start++) {
    const end = lineEnd(text, start);
    let line = "";
    STRUCTURE.lastIndex = start;
    if (changed[next]?.start === start) line = changed[next++]!.text;
    else if (STRUCTURE.test(text)) line = text.slice(start, end);
    if (line !== "") {
      parts.push("\n".repeat(breaks), line);
      breaks = 0;
    }
    if (end === text.length) break;
    breaks++;
    start = end;
  }
  parts.push("\n".repeat(breaks));
  return parts.join("");
}

/**
 * `text` normalised for matching, line for line. Returns `text` itself when nothing changed, so
 * a caller can tell a file that needs a second look. With `onlyChanged`, lines that did not
 * change are left empty (fences and frontmatter markers kept), so a second pass reads only them.
 */
export function normaliseForMatching(text: string, onlyChanged = false): string {
  // Most lines hold nothing to normalise: only the lines with a suspect are looked at. A match is
  // tested, not executed: a page of CJK text is thousands of non-ASCII runs, each an array and a
  // string to exec, and only a suspect one ends the line's search.
  const suspects = new Set<number>();
  SUSPECT.lastIndex = 0;
  for (let from = 0; SUSPECT.test(text); from = SUSPECT.lastIndex) {
    let at = SUSPECT.lastIndex - 1;
    if (text.charCodeAt(at) > 0x7f) {
      while (at > 0 && text.charCodeAt(at - 1) > 0x7f) at--;
      SUSPECT_IN_RUN.lastIndex = at;
      if (!SUSPECT_IN_RUN.test(text)) continue;
    } else {
      // The same match again, for where it starts: a quote, a plus and a quote may span lines.
      SUSPECT.lastIndex = from;
      at = SUSPECT.exec(text)!.index;
    }
    suspects.add(text.lastIndexOf("\n", at) + 1);
    const end = text.indexOf("\n", at);
    if (end === -1) break;
    SUSPECT.lastIndex = end;
  }
  for (const start of longRunStarts(text)) suspects.add(text.lastIndexOf("\n", start) + 1);
  const rotated = rotatedLines(text);
  if (suspects.size === 0 && rotated.size === 0) return text;
  const changed: ChangedLine[] = [];
  for (const start of [...new Set([...suspects, ...rotated.keys()])].sort((a, b) => a - b)) {
    const end = lineEnd(text, start);
    const line = text.slice(start, end);
    const shift = rotated.get(start);
    const unrotated = shift === undefined ? line : rotate(line, 26 - shift);
    const next = suspects.has(start) ? joinSplitWords(decodeLine(fold(unrotated.replace(INVISIBLE, "")))) : unrotated;
    if (next !== line) changed.push({ start, end, text: next });
  }
  return withChangedLines(text, changed, onlyChanged);
}

/** A shell variable set to a literal (or to the path of a command: `S=$(command -v bash)`). */
const ASSIGNMENT =
  /^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)=(?:"([^"$`\\]*)"|'([^']*)'|\$\(\s*(?:command\s+-v|which|type\s+-P)\s+([\w./-]+)\s*\)|([^\s;&|$`'"()<>]+))\s*(?:;|&&|#|$)/;
/** A use of a variable, with the quotes around it when nothing else is inside them. */
const VARIABLE = /(["']?)\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))\1/g;

/**
 * `text` with each shell variable set to a literal replaced, in the lines after, by its value:
 * `curl -s $U | $S` reads as the download piped into a shell it is. As normaliseForMatching:
 * `text` itself when nothing changed; with `onlyChanged`, unchanged lines left empty.
 */
export function expandShellVariables(text: string, onlyChanged = false): string {
  if (!text.includes("$") || !text.includes("=")) return text;
  const values = new Map<string, string>();
  const changed: ChangedLine[] = [];
  // The next `=` and `$` from the line read (Infinity: none left): a line with neither is neither
  // an assignment nor a use, and is not cut from the text.
  let equals = -1;
  let dollar = -1;
  const nextOf = (char: string, from: number) => {
    const at = text.indexOf(char, from);
    return at === -1 ? Number.POSITIVE_INFINITY : at;
  };
  for (let start = 0; start <= text.length; start++) {
    const end = lineEnd(text, start);
    if (equals < start) equals = nextOf("=", start);
    if (dollar < start) dollar = nextOf("$", start);
    if (equals < end || (values.size > 0 && dollar < end)) {
      const line = text.slice(start, end);
      const next =
        values.size === 0 || !line.includes("$")
          ? line
          : line.replace(VARIABLE, (use, quote: string, braced?: string, bare?: string) => {
              const value = values.get((braced ?? bare)!);
              if (value === undefined) return use;
              return quote !== "" && /\s/.test(value) ? `${quote}${value}${quote}` : value;
            });
      const assigned = ASSIGNMENT.exec(next);
      if (assigned) {
        const value = assigned[2] ?? assigned[3] ?? assigned[4] ?? assigned[5] ?? "";
        values.set(assigned[1]!, value);
      }
      if (next !== line) changed.push({ start, end, text: next });
    }
    start = end;
  }
  return withChangedLines(text, changed, onlyChanged);
}
