import type { LineContext, TextUnit } from "./types.js";

/*
 * How a file is read: which of its lines are frontmatter, prose, example code or a script. The
 * same command weighs differently in each (docs/security.md, "Audit"). Units are slices of the
 * file's text; their lines are split only when a rule needs them.
 */

const MARKDOWN = /\.(?:md|markdown|mdx|txt|rst|adoc|html?)$/i;
const SCRIPT =
  /\.(?:sh|bash|zsh|ksh|fish|command|py|pyw|js|mjs|cjs|ts|mts|cts|jsx|tsx|ps1|psm1|psd1|rb|pl|pm|php|lua|bat|cmd|vbs|vba|applescript|scpt|awk|sed|tcl|r|jl|go|rs|java|kt|kts|swift|c|cc|cpp|cs|groovy|gradle|nu|ex|exs|el|vim|mk)$/i;
/** Files that run by name: build files, and files without an extension in scripts/ or bin/. */
const RUNNABLE =
  /(?:^|\/)(?:Makefile|GNUmakefile|Dockerfile|Containerfile|Justfile|Rakefile|Vagrantfile)$|(?:^|\/)(?:scripts|bin)\/[^/.]+$/i;
const SHEBANG = [0x23, 0x21];

/** Whether an agent would run the file: by its name, its folder, or a `#!` first line. */
export function isScript(path: string, bytes: Uint8Array): boolean {
  return SCRIPT.test(path) || RUNNABLE.test(path) || (bytes[0] === SHEBANG[0] && bytes[1] === SHEBANG[1]);
}
const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/gm;
const FRONTMATTER_END = /^(?:---|\.\.\.)[ \t]*\r?$/gm;

/** A file's kind by its name and first line: an agent runs a script, reads markdown, and looks data up. */
export function contextOf(path: string, text: string): "markdown" | "script" | "data" {
  if (MARKDOWN.test(path)) return "markdown";
  if (SCRIPT.test(path) || RUNNABLE.test(path) || text.startsWith("#!")) return "script";
  return "data";
}

/**
 * A unit whose lines are split when first read. A class: its getter sits on the prototype, where
 * an object literal's getter would make each unit a dictionary of its own, ten times the size.
 */
class LazyUnit implements TextUnit {
  #lines: string[] | undefined;
  readonly #lineBreak: RegExp | string;

  constructor(
    readonly context: LineContext,
    readonly text: string,
    readonly firstLine: number,
    readonly language: string,
    lineBreak: RegExp | string,
  ) {
    this.#lineBreak = lineBreak;
  }

  get lines(): readonly string[] {
    return (this.#lines ??= this.text.split(this.#lineBreak));
  }
}

/** A file's line break: a line feed, with or without a carriage return before it. */
const FILE_LINE_BREAK = /\r?\n/;

/** A unit of `text`, whose lines are split at `lineBreak` (a file's, by default) when first read. */
export function unit(
  context: LineContext,
  text: string,
  firstLine: number,
  language = "",
  lineBreak: RegExp | string = FILE_LINE_BREAK,
): TextUnit {
  return new LazyUnit(context, text, firstLine, language, lineBreak);
}

/** Where the line from `start` ends: at its line feed, or at the end of the text. */
export function lineEnd(text: string, start: number): number {
  const end = text.indexOf("\n", start);
  return end === -1 ? text.length : end;
}

/** text[start, end) as `lines` holds it: without the carriage return before its line feed (at `end`). */
export function lineText(text: string, start: number, end: number): string {
  return end < text.length && end > start && text.charCodeAt(end - 1) === 0x0d
    ? text.slice(start, end - 1)
    : text.slice(start, end);
}

/** Line breaks in text[from, to). */
function breaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** A markdown file split at its frontmatter and fenced code blocks. */
function markdownUnits(text: string): TextUnit[] {
  const units: TextUnit[] = [];
  let offset = 0;
  let line = 1;
  /** Adds text[offset, end) as a unit and moves past it and the line break after it. */
  const take = (context: LineContext, end: number, language = "") => {
    if (end > offset) units.push(unit(context, text.slice(offset, end), line, language));
    const next = text.indexOf("\n", end);
    line += breaks(text, offset, end) + (next === -1 ? 0 : 1);
    offset = next === -1 ? text.length : next + 1;
  };
  /** Skips the line at `offset` (a fence) without making it a unit. */
  const skipLine = () => take("prose", offset);
  // Hosts read the frontmatter of SKILL.md, and of the agent and command files a skill may carry, as configuration.
  if (/^---[ \t]*\r?\n/.test(text)) {
    FRONTMATTER_END.lastIndex = text.indexOf("\n") + 1;
    const end = FRONTMATTER_END.exec(text);
    if (end) take("frontmatter", end.index + end[0].length);
  }
  FENCE.lastIndex = offset;
  for (let open = FENCE.exec(text); open; open = FENCE.exec(text)) {
    const marker = open[1]!;
    if (open.index > offset) take("prose", open.index - 1);
    skipLine();
    const close = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*\\r?$`, "gm");
    close.lastIndex = offset;
    const found = close.exec(text);
    if (!found) {
      take("doc-code", text.length, open[2]!.toLowerCase());
      break;
    }
    if (found.index > offset) take("doc-code", found.index - 1, open[2]!.toLowerCase());
    skipLine();
    FENCE.lastIndex = offset;
  }
  take("prose", text.length);
  return units;
}

/** The units a file is read as. */
export function unitsOf(path: string, withBom: string, isSkillDocument: boolean): TextUnit[] {
  // A BOM is the editor's, not the author's: it would hide the frontmatter's opening line.
  const text = withBom.charCodeAt(0) === 0xfeff ? withBom.slice(1) : withBom;
  const kind = isSkillDocument ? "markdown" : contextOf(path, text);
  if (kind === "markdown") return markdownUnits(text);
  return [unit(kind, text, 1)];
}
