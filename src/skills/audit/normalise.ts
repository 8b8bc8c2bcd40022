import confusables from "unhomoglyph/data.json" with { type: "json" };

/*
 * Text as an agent understands it, for rules to match: invisible characters dropped, look-alike
 * letters and full-width forms folded to ASCII, inline encodings decoded, words split by empty
 * quotes or string concatenation joined. Each line stays one line, so a finding's line is the
 * line in the file.
 */

/** Characters a reader does not see (Unicode Default_Ignorable): zero-width, bidirectional controls, variation selectors, tags. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Non-ASCII characters whose Unicode confusable prototype (UTS #39, via unhomoglyph's copy of
 * confusables.txt) is ASCII. The prototype of I, l and 1 is "l": an upper-case look-alike folds to "I".
 */
const FOLD = new Map<string, string>();
for (const [from, to] of Object.entries(confusables as Record<string, string>)) {
  if (/^[\x21-\x7E]+$/.test(to) && /[^\x00-\x7F]/.test(from)) FOLD.set(from, to === "l" && from.toLowerCase() !== from ? "I" : to);
}
const NON_ASCII = /[^\x00-\x7F]/u;

/** How many times nested encodings are undone. */
const MAX_DECODE_DEPTH = 3;
/** Runs shorter than this are too short to hold an instruction or a command. */
const MIN_BASE64 = 20;
const BASE64 = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){10,}(?![0-9A-Fa-f])/g;
const ESCAPES = /\\x[0-9A-Fa-f]{2}|\\u\{[0-9A-Fa-f]{1,6}\}|\\u[0-9A-Fa-f]{4}|&#x[0-9A-Fa-f]{1,6};|&#[0-9]{1,7};|(?:%[0-9A-Fa-f]{2}){3,}/g;

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
  if (!NON_ASCII.test(line)) return line;
  let folded = "";
  for (const char of line.normalize("NFKC")) folded += FOLD.get(char) ?? char;
  return folded;
}

/**
 * `text` normalised for matching, line for line. Returns `text` itself when nothing changed, so
 * a caller can tell a file that needs a second look.
 */
export function normaliseForMatching(text: string): string {
  const lines = text.split("\n");
  let changed = false;
  const normalised = lines.map((line) => {
    const next = joinSplitWords(decodeLine(fold(line.replace(INVISIBLE, ""))));
    if (next !== line) changed = true;
    return next;
  });
  return changed ? normalised.join("\n") : text;
}
