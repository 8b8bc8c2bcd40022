/**
 * The frontmatter nearly every SKILL.md is written in, read without the yaml package: `key: value`
 * mappings (nested by indentation), lists of scalars or of such mappings, one-line flow lists of
 * scalars (`tags: [a, b]`), plain, quoted and block scalars. Loading a large catalog spends most
 * of its time in yaml's lexer, parser and composer otherwise, and a cold `list` pays for yaml's
 * first, unoptimized runs even when only a handful of skills need it (see docs/benchmarks.md,
 * "Serving large catalogs" and issue 51's `list` figures).
 *
 * It answers only for text it understands completely and otherwise returns undefined, so the
 * caller parses with yaml: anything unusual (comments, tabs, flow mappings, anchors, tags,
 * escapes past the common ones, keep chomping, duplicate or unsafe keys) takes that path. For
 * the text it accepts, the result is what yaml's toJS gives under the core schema, as
 * null-prototype plain data; test/skills/simple-frontmatter.test.ts checks both against each other
 * over the corpus and over generated frontmatter.
 */
export function parseSimpleFrontmatter(yaml: string): Record<string, unknown> | undefined {
  // A block scalar's final line break depends on the text ending with one, as a frontmatter does.
  if (!yaml.endsWith("\n") || UNSUPPORTED_CHARACTERS.test(yaml)) return undefined;
  const lines = yaml.split("\n");
  // The closing line's break leaves one empty string behind.
  if (lines.at(-1) === "") lines.pop();
  const reader = new LineReader(lines);
  const map = reader.map(0);
  if (map === undefined || reader.next < lines.length || Object.keys(map).length === 0) return undefined;
  return map;
}

// Tabs (indentation and separation rules differ for them), control characters yaml refuses or
// reads in its own way, a BOM inside the text, and line separators.
const UNSUPPORTED_CHARACTERS = /[\t\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]/;

/** A plain key at the start of a line, then ": " or the end of the line. */
const KEY = /^([A-Za-z_][A-Za-z0-9_.-]*):(?: +|$)/;
/** Keys the core schema resolves to null or a boolean, and keys toPlainData drops. */
const SPECIAL_KEYS = new Set([
  "null",
  "Null",
  "NULL",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
  "__proto__",
  "constructor",
  "prototype",
]);
/** Characters that open something other than a plain scalar when they start a value. */
const INDICATORS = new Set([..."-?:,[]{}#&*!|>'\"%@`"]);
const BLOCK_HEADER = /^([|>])(-?) *$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { "\\": "\\", '"': '"', "/": "/", n: "\n", t: "\t", r: "\r" };

class LineReader {
  next = 0;

  /** Mutable only so that a list item's mapping can be read as one (see list). */
  constructor(private readonly lines: string[]) {}

  /** A block mapping whose keys sit at `indent`; undefined for anything outside the subset. */
  map(indent: number): Record<string, unknown> | undefined {
    const map: Record<string, unknown> = Object.create(null);
    for (;;) {
      this.skipBlank();
      if (this.next >= this.lines.length) return map;
      const line = this.lines[this.next]!;
      const at = indentOf(line);
      if (at < indent) return map;
      if (at > indent) return undefined;
      const match = KEY.exec(line.slice(indent));
      if (!match) return undefined;
      const key = match[1]!;
      if (SPECIAL_KEYS.has(key) || Object.hasOwn(map, key)) return undefined;
      const rest = trimSpaces(line.slice(indent + match[0].length));
      this.next++;
      const value = rest === "" ? this.nested(indent) : this.inline(rest, indent);
      if (value === INVALID) return undefined;
      map[key] = value;
    }
  }

  /** The value of a key with nothing after its colon: a mapping or list below it, or null. */
  private nested(indent: number): unknown {
    this.skipBlank();
    if (this.next >= this.lines.length) return null;
    const line = this.lines[this.next]!;
    const at = indentOf(line);
    // A list may sit at its key's own indentation.
    if (at >= indent && isListItem(line, at)) return this.list(at) ?? INVALID;
    if (at <= indent) return null;
    return this.map(at) ?? INVALID;
  }

  /** A list of scalars, one `- item` a line at `indent`. */
  private list(indent: number): unknown[] | undefined {
    const items: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.next >= this.lines.length) return items;
      const line = this.lines[this.next]!;
      const at = indentOf(line);
      if (at < indent) return items;
      if (at > indent) return undefined;
      if (!isListItem(line, at)) return items;
      const text = trimSpaces(line.slice(at + 1));
      if (KEY.test(text)) {
        // `- key: value`, maybe more keys below at the first key's column: with the dash blanked
        // out, the item is a mapping like any other.
        const column = at + 1 + indentOf(line.slice(at + 1));
        this.lines[this.next] = " ".repeat(column) + line.slice(column);
        const map = this.map(column);
        if (map === undefined) return undefined;
        items.push(map);
        continue;
      }
      this.next++;
      // An item continued on the next line is left to yaml.
      if (this.continues(indent)) return undefined;
      const value = text === "" ? INVALID : scalarOnOneLine(text);
      if (value === INVALID) return undefined;
      items.push(value);
    }
  }

  /** A value written after its key's colon, on the same line and maybe the lines below. */
  private inline(text: string, indent: number): unknown {
    const first = text[0]!;
    if (first === "|" || first === ">") return this.block(text, indent);
    if (first === '"' || first === "'") return this.continues(indent) ? INVALID : scalarOnOneLine(text);
    if (first === "[") return this.continues(indent) ? INVALID : flowList(text);
    if (!isPlainLine(text, true)) return INVALID;
    const parts = [text];
    while (this.continues(indent)) {
      // The blank lines before the deeper line continues() found, taken at once: one at a time,
      // each check would scan the rest of them again.
      while (isBlank(this.lines[this.next]!)) {
        parts.push("");
        this.next++;
      }
      const part = trimSpaces(this.lines[this.next]!);
      if (!isPlainLine(part, false)) return INVALID;
      parts.push(part);
      this.next++;
    }
    // A line break between two lines folds to a space; n empty lines between them are n breaks.
    let value = parts[0]!;
    let breaks = 0;
    for (const part of parts.slice(1)) {
      if (part === "") breaks++;
      else {
        value += breaks === 0 ? ` ${part}` : "\n".repeat(breaks) + part;
        breaks = 0;
      }
    }
    return parts.length === 1 ? resolvePlain(value) : value;
  }

  /** A literal (`|`) or folded (`>`) block scalar, clipped or stripped. */
  private block(header: string, indent: number): unknown {
    const match = BLOCK_HEADER.exec(header);
    if (!match) return INVALID;
    const folded = match[1] === ">";
    const strip = match[2] === "-";
    const first = this.lines[this.next];
    // Leading empty lines, and an empty block, have rules of their own.
    if (first === undefined || isBlank(first)) return INVALID;
    const blockIndent = indentOf(first);
    if (blockIndent <= indent) return INVALID;
    const content: string[] = [];
    while (this.next < this.lines.length) {
      const line = this.lines[this.next]!;
      const blank = isBlank(line);
      const at = blank ? 0 : indentOf(line);
      if (!blank && at < blockIndent) {
        if (at > indent) return INVALID;
        break;
      }
      // A blank line holding more than the indentation is content in yaml's eyes.
      if (blank && line.length > blockIndent) return INVALID;
      const text = blank ? "" : line.slice(blockIndent);
      if (folded && text.startsWith(" ")) return INVALID;
      content.push(text);
      this.next++;
    }
    while (content.at(-1) === "") content.pop();
    let value: string;
    if (folded) {
      value = content[0]!;
      let breaks = 0;
      for (const text of content.slice(1)) {
        if (text === "") breaks++;
        else {
          value += breaks === 0 ? ` ${text}` : "\n".repeat(breaks) + text;
          breaks = 0;
        }
      }
    } else value = content.join("\n");
    return strip ? value : `${value}\n`;
  }

  /** Whether the next line continues the value of a key at `indent`: a deeper line after any blank ones. */
  private continues(indent: number): boolean {
    let index = this.next;
    while (index < this.lines.length && isBlank(this.lines[index]!)) index++;
    if (index >= this.lines.length) return false;
    const line = this.lines[index]!;
    return indentOf(line) > indent;
  }

  private skipBlank(): void {
    while (this.next < this.lines.length && isBlank(this.lines[this.next]!)) this.next++;
  }
}

/** Returned for text outside the subset: undefined and null are values. */
const INVALID = Symbol("invalid");

// YAML's white space is the space and the tab (and tabs never get this far): String.trim would
// also cut no-break and ideographic spaces, which are content to YAML.
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (text.charCodeAt(start) === 32) start++;
  while (end > start && text.charCodeAt(end - 1) === 32) end--;
  return text.slice(start, end);
}

function isBlank(line: string): boolean {
  return indentOf(line) === line.length;
}

function indentOf(line: string): number {
  let at = 0;
  while (line.charCodeAt(at) === 32) at++;
  return at;
}

function isListItem(line: string, at: number): boolean {
  return line[at] === "-" && (line.length === at + 1 || line[at + 1] === " ");
}

/**
 * Whether a line of a plain scalar holds nothing yaml reads otherwise: no ": " or trailing colon
 * (a nested key), no " #" (a comment), and, on its first line, no indicator in front.
 */
function isPlainLine(text: string, first: boolean): boolean {
  if (first && INDICATORS.has(text[0]!)) return false;
  if (!first && text[0] === "#") return false;
  return !text.includes(": ") && !text.endsWith(":") && !text.includes(" #");
}

/**
 * A flow list of scalars on one line, `[a, 'b c', 3]`, or `[]`. Items holding what flow context
 * reads otherwise (a colon, a comment, a nested collection, a comma inside quotes) and a
 * trailing comma are left to yaml.
 */
function flowList(text: string): unknown[] | typeof INVALID {
  if (!text.endsWith("]")) return INVALID;
  const inside = text.slice(1, -1);
  if (trimSpaces(inside) === "") return [];
  const items: unknown[] = [];
  for (const part of inside.split(",")) {
    const item = trimSpaces(part);
    if (item === "" || FLOW_UNSUPPORTED.test(item)) return INVALID;
    const value = scalarOnOneLine(item);
    if (value === INVALID) return INVALID;
    items.push(value);
  }
  return items;
}

/** Characters that mean something else inside a flow collection: nesting, a pair, a comment. */
const FLOW_UNSUPPORTED = /[[\]{}:#]/;

/** A quoted or plain scalar that fits on its line. */
function scalarOnOneLine(text: string): unknown {
  const first = text[0];
  if (first === "'") {
    let value = "";
    let at = 1;
    for (;;) {
      const quote = text.indexOf("'", at);
      if (quote === -1) return INVALID;
      value += text.slice(at, quote);
      if (text[quote + 1] !== "'") return quote === text.length - 1 ? value : INVALID;
      value += "'";
      at = quote + 2;
    }
  }
  if (first === '"') {
    let value = "";
    let at = 1;
    for (;;) {
      const quote = text.indexOf('"', at);
      const escape = text.indexOf("\\", at);
      if (quote === -1) return INVALID;
      if (escape !== -1 && escape < quote) {
        const replacement = SIMPLE_ESCAPES[text[escape + 1] ?? ""];
        if (replacement === undefined) return INVALID;
        value += text.slice(at, escape) + replacement;
        at = escape + 2;
        continue;
      }
      value += text.slice(at, quote);
      return quote === text.length - 1 ? value : INVALID;
    }
  }
  return isPlainLine(text, true) ? resolvePlain(text) : INVALID;
}

/** A one-line plain scalar under the YAML 1.2 core schema, resolved as yaml resolves it. */
function resolvePlain(text: string): unknown {
  if (/^(?:~|[Nn]ull|NULL)$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return text[0] === "t" || text[0] === "T";
  // Everything numeric starts with a digit, a sign or a dot.
  const code = text.charCodeAt(0);
  if (!(code >= 48 && code <= 57) && code !== 43 && code !== 45 && code !== 46) return text;
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text)) {
    if (text.slice(-3).toLowerCase() === "nan") return Number.NaN;
    return text[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text)) return parseFloat(text);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)) return parseFloat(text);
  return text;
}
