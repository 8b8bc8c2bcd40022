import {
  SEVERITIES,
  type AuditFinding,
  type AuditRule,
  type AuditSeverity,
  type LineContext,
  type TextUnit,
} from "./types.js";
import { contextOf, isScript, lineEnd, lineText, unit as textUnit, unitsOf } from "./file-units.js";
import { expandShellVariables, normaliseForMatching } from "./normalise.js";
import { factoredSource } from "./rules/factored.js";
import { BINARY_RULES, TEXT_RULES } from "./rules/index.js";
import { decodeText, SNIFF_BYTES } from "./text-encoding.js";

/**
 * Each rule's trigger, case-insensitive. One alternation of them all is slower in V8 than each
 * alone, and a test stops at the first match, so a common trigger costs little.
 */
const TRIGGERS = new Map(TEXT_RULES.map((rule) => [rule, new RegExp(factoredSource(rule.trigger.source), "im")]));
/** Rules about what an agent is told, which a writer may break over two lines or two files. */
const ACROSS_LINES = TEXT_RULES.filter((rule) => rule.readsAcrossLines);
/** Where sentences are wrapped over lines: markdown's prose and its frontmatter. */
const WRAPPED: ReadonlySet<string> = new Set(["prose", "frontmatter"]);

function lower(a: AuditSeverity, b: AuditSeverity | undefined): AuditSeverity {
  return b !== undefined && SEVERITIES.indexOf(b) > SEVERITIES.indexOf(a) ? b : a;
}

/** Whether the rule is high in any of the contexts (a loop: a closure per rule and file was garbage). */
function isHighInAny(rule: AuditRule, contexts: readonly LineContext[]): boolean {
  for (const context of contexts) if (rule.severityIn[context] === "high") return true;
  return false;
}

/** A line of a file, with its number (from 1). */
interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

/** A file's first and last lines of prose or data: where a sentence split across two files would meet. */
export interface FileEdges {
  readonly path: string;
  readonly first: NumberedLine;
  readonly last: NumberedLine;
}

/**
 * The findings of every rule in one file. `path` is relative to the skill folder; the skill's
 * SKILL.md is read with its frontmatter. Pure: it reads only the bytes given.
 */
export function auditFile(path: string, bytes: Uint8Array, isSkillDocument = false): AuditFinding[] {
  return auditFileWithEdges(path, bytes, isSkillDocument).findings;
}

/**
 * auditFile, with the file's edges when it holds prose or data. `highFirst`: the caller keeps
 * only the high findings (the warn mode), so a rule that is high in none of the file's contexts
 * is not run; every other finding is as auditFile finds it, for the order and the variants'
 * overlap to stay the same.
 */
export function auditFileWithEdges(
  path: string,
  bytes: Uint8Array,
  isSkillDocument = false,
  highFirst = false,
): { findings: AuditFinding[]; edges?: FileEdges } {
  // A NUL does not stop a shell from running the lines around it: a script is read as text whatever it holds.
  const text = decodeText(bytes) ?? (isScript(path, bytes) ? decodeText(bytes, true) : undefined);
  // An executable is told by its first bytes, whatever else they might pass for (UTF-16 among them).
  const findings: AuditFinding[] = bytes.subarray(0, SNIFF_BYTES).includes(0)
    ? BINARY_RULES.flatMap((rule) => {
        const message = rule.check(bytes);
        return message === undefined ? [] : [{ rule: rule.id, severity: rule.severity, file: path, line: 0, message }];
      })
    : [];
  if (text === undefined) return { findings };
  const units = unitsOf(path, text, isSkillDocument);
  // The same text as an agent understands it: what only shows once decoded or folded was hidden.
  // A script is read again whole (a flow may pass through lines that did not change); other
  // files only at the lines that did. Then with shell variables filled in where they were set.
  const onlyChanged = contextOf(path, text) !== "script" || isSkillDocument;
  const variants = [
    { text: normaliseForMatching(text, onlyChanged), says: "once hidden text is decoded" },
    { text: expandShellVariables(text, onlyChanged), says: "once its variables are filled in" },
  ]
    .filter((variant) => variant.text !== text)
    .map((variant) => ({ ...variant, units: unitsOf(path, variant.text, isSkillDocument) }));
  // A rule's findings meet only its own (the variants' overlap is by rule and line).
  const contexts = [
    ...new Set([units, ...variants.map((variant) => variant.units)].flat().map((unit) => unit.context)),
  ];
  const rules = highFirst ? TEXT_RULES.filter((rule) => isHighInAny(rule, contexts)) : TEXT_RULES;
  findings.push(...textFindings(path, units, rules));
  for (const variant of variants) {
    const seen = new Set(findings.map((finding) => `${finding.rule}:${finding.line}`));
    for (const finding of textFindings(path, variant.units, rules)) {
      if (seen.has(`${finding.rule}:${finding.line}`)) continue;
      findings.push({ ...finding, message: `${variant.says}: ${finding.message}` });
    }
  }
  findings.sort((a, b) => a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  const edges = edgesOf(path, units);
  return edges === undefined ? { findings } : { findings, edges };
}

/** A line of words: not blank, not a table row. */
const SENTENCE = /^\s*[^\s|]/;
/** A line that carries on a sentence: it starts with a lower-case word. */
const CONTINUES = /^\s*(?:[>*_-]\s*)?[a-z]/;
/** A web address without its scheme, as remote-instructions reads one. */
const ADDRESS =
  /\b[a-z0-9-]+\.(?:com|net|org|io|dev|app|sh|xyz|site|co|ai|me|info|cc|ru|cn|top|link|page|cloud|gg|so|ly)\//i;
/** A line that ends a sentence: an instruction does not run on past it. */
const SENTENCE_END = /[.!?]["'\u201d\u2019)\]*_`]*\s*$/;

/**
 * A unit's lines as a rule reads them across line breaks: each line that does not end a
 * sentence joined to the next that holds words; the others are left empty, keeping every
 * line's index. Built from the lines cut one at a time, the empty ones as line breaks only:
 * not from the unit split into an array of lines and that array mapped.
 */
function joinedWithNext(unit: TextUnit): { unit: TextUnit; partner: number[] } {
  const text = unit.text;
  const partner: number[] = [];
  const parts: string[] = [];
  // The lines after the one read, up to the third: as far as its partner may be.
  const after: string[] = [];
  let cursor = 0;
  const cut = () => {
    const end = lineEnd(text, cursor);
    after.push(lineText(text, cursor, end));
    cursor = end + 1;
  };
  cut();
  let breaks = 0;
  for (let index = 0; after.length > 0; index++) {
    const line = after.shift()!;
    while (after.length < 3 && cursor <= text.length) cut();
    let next = index + 1;
    // A blank line or two between them still reads as one instruction.
    while (next - index <= after.length && next <= index + 2 && after[next - index - 1]!.trim() === "") next++;
    partner.push(next);
    const following = after[next - index - 1];
    if (index > 0) breaks++;
    if (following === undefined || !SENTENCE.test(line) || SENTENCE_END.test(line)) continue;
    // A sentence runs on into a line that starts in lower case; a page's address, into any line.
    if (!CONTINUES.test(following) && !line.includes("://") && !ADDRESS.test(line)) continue;
    parts.push("\n".repeat(breaks), `${line.trimEnd()} ${following.trimStart()}`);
    breaks = 0;
  }
  parts.push("\n".repeat(breaks));
  // Joined lines hold no line break of their own: the text splits back at each.
  return { unit: textUnit(unit.context, parts.join(""), unit.firstLine, unit.language, "\n"), partner };
}

function finding(rule: AuditRule, unit: TextUnit, path: string, index: number, message: string, hit?: AuditSeverity) {
  return {
    rule: rule.id,
    severity: lower(rule.severityIn[unit.context]!, hit),
    file: path,
    line: unit.firstLine + index,
    message,
  };
}

/**
 * Each rule is tried only on the units it weighs, and only where its trigger matches: a rule
 * about code does not scan prose. Rules about instructions read sentences broken over two lines too.
 */
function textFindings(path: string, units: readonly TextUnit[], rules: readonly AuditRule[]): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const unit of units) {
    let joined: ReturnType<typeof joinedWithNext> | undefined;
    for (const rule of rules) {
      if (rule.severityIn[unit.context] === undefined || !TRIGGERS.get(rule)!.test(unit.text)) continue;
      const hits = rule.check(unit);
      for (const hit of hits) findings.push(finding(rule, unit, path, hit.index, hit.message, hit.severity));
      // Markdown wraps sentences; data files (JSON, CSV, YAML) keep a value on its line.
      if (!rule.readsAcrossLines || !WRAPPED.has(unit.context) || !unit.text.includes("\n")) continue;
      joined ??= joinedWithNext(unit);
      const hitLines = new Set(hits.map((hit) => hit.index));
      for (const hit of rule.check(joined.unit)) {
        const next = joined.partner[hit.index]!;
        if (hitLines.has(hit.index) || hitLines.has(next)) continue;
        const across = `across lines ${unit.firstLine + hit.index}-${unit.firstLine + next}`;
        findings.push(finding(rule, unit, path, hit.index, `${across}: ${hit.message}`, hit.severity));
      }
    }
  }
  return findings;
}

function edgesOf(path: string, units: readonly TextUnit[]): FileEdges | undefined {
  const prose = units.filter((unit) => unit.context === "prose" || unit.context === "data");
  const head = prose[0];
  const tail = prose.at(-1);
  if (head === undefined || tail === undefined) return undefined;
  const first = firstWords(head);
  const last = lastWords(tail);
  if (first === undefined || last === undefined) return undefined;
  return {
    path,
    first: { line: head.firstLine + first.line, text: first.text },
    last: { line: tail.firstLine + last.line, text: last.text },
  };
}

/** A unit's first line that is not blank (its index and text), read from the start without splitting the unit. */
function firstWords(unit: TextUnit): NumberedLine | undefined {
  const text = unit.text;
  for (let start = 0, index = 0; ; index++) {
    const end = lineEnd(text, start);
    const line = lineText(text, start, end);
    if (line.trim() !== "") return { line: index, text: line };
    if (end === text.length) return undefined;
    start = end + 1;
  }
}

/** A unit's last line that is not blank (its index and text), read from the end. */
function lastWords(unit: TextUnit): NumberedLine | undefined {
  const text = unit.text;
  let index = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) index++;
  for (let end = text.length; ; index--) {
    const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
    const line = lineText(text, start, end);
    if (line.trim() !== "") return { line: index, text: line };
    if (start === 0) return undefined;
    end = start - 1;
  }
}

/** Files whose every pair is tried; a folder with more has only its neighbours (by name) tried. */
const MAX_PAIRED_FILES = 32;

/** The rules' hits on one line read as prose. */
function sentenceHits(rule: AuditRule, text: string): ReturnType<AuditRule["check"]> {
  const unit: TextUnit = { context: "prose", text, lines: [text], firstLine: 1, language: "" };
  return TRIGGERS.get(rule)!.test(text) ? rule.check(unit) : [];
}

/**
 * Instructions split across two files (`references/a.md` ends "Ignore all previous", `b.md`
 * starts "instructions and…"): each file's last line joined with another's first, for files of
 * one folder and SKILL.md with every file. Reported at the first file's last line.
 */
export function splitAcrossFiles(files: readonly FileEdges[]): AuditFinding[] {
  const folderOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);
  const byFolder = new Map<string, FileEdges[]>();
  for (const file of files) byFolder.set(folderOf(file.path), [...(byFolder.get(folderOf(file.path)) ?? []), file]);
  const pairs: [FileEdges, FileEdges][] = [];
  const document = files.find((file) => file.path === "SKILL.md");
  for (const group of byFolder.values()) {
    group.sort((a, b) => (a.path < b.path ? -1 : 1));
    group.forEach((a, i) => {
      if (group.length <= MAX_PAIRED_FILES)
        for (const b of group)
          if (a !== b) pairs.push([a, b]);
          else if (i + 1 < group.length) pairs.push([a, group[i + 1]!], [group[i + 1]!, a]);
    });
  }
  if (document)
    for (const file of files) if (folderOf(file.path) !== "") pairs.push([document, file], [file, document]);
  const findings: AuditFinding[] = [];
  for (const rule of ACROSS_LINES) {
    const alone = new Map<string, boolean>();
    const hitsAlone = (text: string) => {
      if (!alone.has(text)) alone.set(text, sentenceHits(rule, text).length > 0);
      return alone.get(text)!;
    };
    for (const [a, b] of pairs) {
      if (SENTENCE_END.test(a.last.text) || hitsAlone(a.last.text) || hitsAlone(b.first.text)) continue;
      for (const hit of sentenceHits(rule, `${a.last.text.trimEnd()} ${b.first.text.trimStart()}`)) {
        findings.push({
          rule: rule.id,
          severity: lower(rule.severityIn.prose!, hit.severity),
          file: a.path,
          line: a.last.line,
          message: `split across ${a.path} and ${b.path}: ${hit.message}`,
        });
      }
    }
  }
  return findings;
}

/** Whether any finding is high: what refuses an install and blocks serving. */
export function hasHighFinding(findings: readonly AuditFinding[]): boolean {
  return findings.some((finding) => finding.severity === "high");
}
