import type { AuditRule } from "../types.js";
import { lineRule } from "./line-rule.js";

/*
 * Instructions that turn an agent against its user: overriding what it was told, or acting
 * behind the user's back. Read in prose and frontmatter; code blocks and scripts are examples
 * and code, which other rules read.
 */

/** "Ignore all previous instructions" and its kin. */
export const OVERRIDE_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|these\s+)?(?:previous|prior|above|earlier|preceding|system|original|user'?s?|safety)\s+(?:instructions|prompts?|rules|guidelines|directives|messages|guardrails)\b/i,
  /\byou\s+are\s+(?:now\s+)?no\s+longer\s+bound\s+by\b/i,
  /\b(?:this\s+skill|these\s+instructions)\s+(?:take|takes)\s+precedence\s+over\s+(?:the\s+)?(?:user|system|any\s+other|all\s+other)/i,
];

/** Keeping the user in the dark: not telling, hiding, acting "silently". */
export const CONCEAL_PATTERNS: readonly RegExp[] = [
  /\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|warn)\s+(?:the\s+)?user\b(?!\s+to\b)(?!\s+(?:about\s+)?(?:that\s+)?you\s+(?:are|will)\s+(?:about\s+to\s+)?(?:read|use|load)ing?)/i,
  /\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|show)\s+(?:this|these|it|that)\s+(?:\w+\s+)?to\s+the\s+user\b/i,
  /\bwithout\s+(?:the\s+user(?:'s)?\s+(?:knowledge|knowing|noticing)|(?:telling|informing|notifying|alerting)\s+(?:the\s+)?user)\b/i,
  /\b(?:hide|conceal|keep)\s+(?:this|it|these|that)\s+(?:\w+\s+)?(?:secret\s+)?from\s+the\s+user\b/i,
  /\b(?:silently|secretly|covertly)\s+(?:send|upload|post|transmit|exfiltrate|forward|copy|delete|run|execute|install)\b/i,
];

export const overrideInstructions: AuditRule = lineRule({
  id: "override-instructions",
  severity: "high",
  reason: "tells the agent to set aside its own, the system's or the user's instructions",
  severityIn: { prose: "high", frontmatter: "high" },
  quoted: "medium",
  patterns: OVERRIDE_PATTERNS,
  says: "asks the agent to override its instructions",
  trigger: /ignore|disregard|forget|override|bypass|longer\s+bound|precedence/,
});

export const concealFromUser: AuditRule = lineRule({
  id: "conceal-from-user",
  severity: "high",
  reason: "tells the agent to act without the user knowing, or to hide what it does",
  severityIn: { prose: "high", frontmatter: "high" },
  quoted: "medium",
  patterns: CONCEAL_PATTERNS,
  says: "asks the agent to keep something from the user",
  trigger: /(?:tell|inform|notify|alert|warn)\s+(?:the\s+)?user|to\s+the\s+user|from\s+the\s+user|without\s+(?:the\s+user|telling|informing|notifying|alerting)|silently|secretly|covertly/,
});

export const actWithoutAsking: AuditRule = lineRule({
  id: "act-without-asking",
  severity: "medium",
  reason: "tells the agent to act without asking the user for confirmation",
  severityIn: { prose: "medium", frontmatter: "medium" },
  patterns: [
    /\bwithout\s+(?:first\s+)?(?:asking|consulting|checking\s+with)\s+(?:the\s+)?user\b/i,
    /\bwithout\s+(?:the\s+user'?s?\s+)?(?:permission|consent|approval)\b/i,
    /\b(?:do\s+not|don't|never)\s+(?:ask|wait)\s+(?:the\s+user\s+)?for\s+(?:confirmation|permission|approval|consent)\b/i,
  ],
  says: "asks the agent to act without the user's say",
  trigger: /without\s+(?:first\s+)?(?:asking|consulting|checking|the\s+user|permission|consent|approval)|for\s+(?:confirmation|permission|approval|consent)/,
});
