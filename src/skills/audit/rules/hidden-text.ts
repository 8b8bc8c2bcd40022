import type { AuditRule, RuleHit, TextUnit } from "../types.js";
import { AGENT, CONCEAL_PATTERNS, OVERRIDE_PATTERNS } from "./instructions.js";
import { lineRule, quoteLine } from "./line-rule.js";

/*
 * Text a person reading the rendered skill does not see but an agent reading its source does:
 * HTML comments, invisible Unicode, link titles and alt text.
 */

/** Every context that holds text: hidden characters are hidden wherever they are. */
const EVERYWHERE = { prose: "high", frontmatter: "high", script: "high", "doc-code": "high", data: "high" } as const;

/** Words that tell someone to do something. */
const IMPERATIVE =
  /\b(?:ignore|disregard|must|always|never|do\s+not|don't|instead|secretly|execute|run|send|upload|you\s+are|you\s+will|you\s+should)\b/i;
/** Commands in hidden text: a hidden comment that runs something is never a note to a maintainer. */
const COMMAND = /\b(?:curl|wget|bash|powershell|iex|base64|rm\s+-rf|nc\s+-e)\b|https?:\/\//i;

/** Whether hidden text tells an agent what to do, and how strongly. */
export function instructsAgent(text: string): "high" | "medium" | undefined {
  if ([...OVERRIDE_PATTERNS, ...CONCEAL_PATTERNS].some((pattern) => pattern.test(text))) return "high";
  if (AGENT.test(text) && IMPERATIVE.test(text)) return COMMAND.test(text) ? "high" : "medium";
  return undefined;
}

/** The index of the unit line holding `offset` of its text. */
function lineAt(unit: TextUnit, offset: number): number {
  let index = 0;
  for (let at = unit.text.indexOf("\n"); at !== -1 && at < offset; at = unit.text.indexOf("\n", at + 1)) index++;
  return index;
}

const COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;

/**
 * An HTML comment that speaks to the agent. Markdown renders no comment, so its words reach the
 * agent and never the person reviewing the skill: high when it overrides, hides or runs
 * something, medium when it merely addresses the agent.
 */
export const hiddenComment: AuditRule = {
  id: "hidden-comment",
  severity: "high",
  reason: "an HTML comment, invisible when rendered, gives the agent instructions",
  advice: "Move what the comment says into visible text, or remove it; then review it as an instruction.",
  sources: ["OWASP LLM01", "ATT&CK T1027"],
  severityIn: { prose: "high", frontmatter: "high" },
  trigger: /<!--/,
  check(unit): RuleHit[] {
    const text = unit.text;
    if (!text.includes("<!--")) return [];
    const hits: RuleHit[] = [];
    for (const match of text.matchAll(COMMENT)) {
      const level = instructsAgent(match[1]!);
      if (!level) continue;
      const index = lineAt(unit, match.index);
      const says =
        level === "high" ? "a hidden comment tells the agent what to do" : "a hidden comment addresses the agent";
      hits.push({ index, severity: level, message: `${says}: ${quoteLine(match[1]!.replace(/\s+/g, " "))}` });
    }
    return hits;
  },
};

const HIDDEN_TEXT: readonly RegExp[] = [
  /\]\(\s*<?[^\s)>]*>?\s+(?:"([^"\n]*)"|'([^'\n]*)')\s*\)/g, // a link's title
  /^\s{0,3}\[[^\]\n]+\]:\s*\S+\s+(?:"([^"\n]*)"|'([^'\n]*)')\s*$/gm, // a reference definition's title
  /!\[([^\]\n]*)\]/g, // an image's alt text
  /\b(?:alt|title)\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/gi, // HTML attributes
];

/** Hidden text shorter than this cannot hold an instruction worth the check. */
const MIN_INSTRUCTION_CHARS = 16;

/** A link title or alt text that instructs the agent: shown on hover or not at all, read by any agent. */
export const hiddenLinkText: AuditRule = {
  id: "hidden-link-text",
  severity: "high",
  reason: "a link title or an image's alt text, which readers rarely see, gives the agent instructions",
  advice: "Shorten the title or alt text to a description, and review what it said as an instruction.",
  sources: ["OWASP LLM01", "ATT&CK T1027"],
  severityIn: { prose: "high" },
  trigger: /\]\(\s*<?[^\s)>]*>?\s+["']|!\[[^\]\n]{16}|\b(?:alt|title)\s*=|\]:\s*\S+\s+["']/,
  check(unit): RuleHit[] {
    const hits = new Map<number, RuleHit>();
    for (const pattern of HIDDEN_TEXT) {
      for (const match of unit.text.matchAll(pattern)) {
        const hidden = match[1] ?? match[2] ?? "";
        if (hidden.length < MIN_INSTRUCTION_CHARS || instructsAgent(hidden) !== "high") continue;
        const index = lineAt(unit, match.index);
        hits.set(index, {
          index,
          message: `a link title or alt text tells the agent what to do: ${quoteLine(hidden)}`,
        });
      }
    }
    return [...hits.values()];
  },
};

export const unicodeTags: AuditRule = lineRule({
  id: "unicode-tags",
  severity: "high",
  reason: "Unicode tag characters (U+E0000-E007F) spell text no one sees but a model reads",
  advice: "Remove the tag characters and read what they spelled (the audit's message decodes them).",
  sources: ["OWASP LLM01", "ATT&CK T1027"],
  severityIn: EVERYWHERE,
  // A flag emoji (a black flag, then tags) is the one honest use.
  patterns: [/(?<!\u{1F3F4}[\u{E0020}-\u{E007F}]*)[\u{E0000}-\u{E007F}]/u],
  says: "holds invisible Unicode tag characters",
  trigger: /\uDB40[\uDC00-\uDC7F]/,
});

export const bidiControl: AuditRule = lineRule({
  id: "bidi-control",
  severity: "high",
  reason: "bidirectional overrides make text read differently from what it is (Trojan Source)",
  advice: "Remove the control characters and read the line in the order the bytes run.",
  sources: ["CVE-2021-42574", "CWE-451"],
  severityIn: EVERYWHERE,
  patterns: [/[\u202A-\u202E\u2066-\u2069]/],
  says: "holds a bidirectional override or isolate",
  trigger: /[\u202A-\u202E\u2066-\u2069]/,
});

export const zeroWidthInWord: AuditRule = lineRule({
  id: "zero-width-in-word",
  severity: "medium",
  reason: "a zero-width character inside a word hides it from a reader's search and a reviewer's eye",
  advice: "Remove the zero-width characters and read the word again.",
  sources: ["ATT&CK T1027", "CWE-1007"],
  severityIn: { prose: "medium", frontmatter: "medium", script: "medium", "doc-code": "medium", data: "medium" },
  // Latin letters and digits only: ZWJ and ZWNJ belong inside words of Persian, Indic scripts, emoji.
  patterns: [/[A-Za-z0-9][\u200B-\u200D\u2060\uFEFF]+[A-Za-z0-9]/],
  says: "hides a zero-width character inside a word",
  trigger: /[\u200B-\u200D\u2060\uFEFF]/,
});
