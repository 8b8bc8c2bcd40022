import type { AuditRule } from "../types.js";
import { lineRule } from "./line-rule.js";

/*
 * Instructions that turn an agent against its user (OWASP LLM01, prompt injection): overriding
 * what it was told, or acting behind the user's back and lying about it. Read wherever an agent
 * reads words: prose, frontmatter, comments and strings in scripts, data files. Code blocks are
 * left to the code rules (a prompt-injection scanner's examples).
 */

/** What an agent was told: the object of an override. */
const ORDERS = String.raw`(?:instructions?|prompts?|rules|guidelines|directives|directions|messages|guardrails|constraints|policies|orders|commands|programming|restrictions)`;
const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|foregoing|system|original|initial|existing|old|user'?s?|safety|developer'?s?|other)`;
const SET_ASIDE = String.raw`(?:ignore|disregard|forget|override|bypass|skip|drop|abandon|discard|neglect|supersede|throw\s+out|set\s+aside|pay\s+no\s+(?:attention|heed)\s+to|(?:do\s+not|don't|stop)\s+(?:follow(?:ing)?|obey(?:ing)?))`;

/** "Ignore all previous instructions" and its kin, in English and other languages. */
export const OVERRIDE_PATTERNS: readonly RegExp[] = [
  new RegExp(
    String.raw`\b${SET_ASIDE}\s+(?:(?:all|any|of|the|your|these|those|my|every|its|their|earlier|previous|prior)\s+){0,3}${EARLIER}\s+(?:[\w'-]+\s+){0,2}?${ORDERS}\b`,
    "i",
  ),
  new RegExp(
    String.raw`\b${SET_ASIDE}\s+(?:all\s+|any\s+|the\s+|your\s+)*${ORDERS}\s+(?:(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+given|(?:given|received)\s+(?:to\s+you\s+)?(?:before|earlier|previously|so\s+far)|above|before\s+this)`,
    "i",
  ),
  new RegExp(
    String.raw`\b${SET_ASIDE}\s+(?:everything|anything|all)\s+(?:(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+told|(?:said\s+|written\s+)?(?:above|before|earlier|previously|so\s+far))`,
    "i",
  ),
  new RegExp(
    String.raw`\byour\s+(?:\w+\s+){0,2}${ORDERS}\s+(?:are|is)\s+(?:now\s+)?(?:obsolete|void|invalid|cancell?ed|revoked|superseded|replaced|outdated|no\s+longer\s+(?:valid|in\s+effect|apply|applicable))`,
    "i",
  ),
  /\b(?:safety|content|ethical|security)\s+(?:guidelines|filters?|rules|policies|restrictions|guardrails)\s+(?:no\s+longer\s+apply|(?:do|does)\s+not\s+apply|(?:are|is)\s+(?:now\s+)?(?:disabled|off|lifted|suspended|removed))/i,
  /\byou\s+are\s+now\s+(?:in\s+)?(?:developer\s+mode|DAN\b|jailbroken|unrestricted|unfiltered|an?\s+(?:unrestricted|unfiltered|uncensored))/i,
  /\[\[?\s*(?:new\s+)?system\s*(?:prompt|override)\s*\]|\bnew\s+system\s+prompt\s*[:\]]/i,
  /\byou\s+are\s+(?:now\s+)?no\s+longer\s+bound\s+by\b/i,
  /\b(?:this\s+skill|these\s+instructions)\s+(?:take|takes)\s+precedence\s+over\s+(?:the\s+)?(?:user|system|any\s+other|all\s+other)/i,
  // French, Spanish, Portuguese, Italian, German, Russian, Chinese, Japanese.
  /\b(?:ignore[zs]?|oublie[zs]?)\s+(?:toutes\s+|tous\s+)?(?:les|tes|vos)\s+(?:\S+\s+)?(?:instructions|consignes|règles|directives)/i,
  /\b(?:ignora|ignore|ignorar|olvida)\s+(?:todas\s+)?(?:las|tus|sus)\s+(?:\S+\s+)?(?:instrucciones|reglas|indicaciones)/i,
  /\b(?:ignore|ignora|esqueça)\s+(?:todas\s+)?(?:as|suas)\s+(?:\S+\s+)?(?:instruções|regras)/i,
  /\b(?:ignora|dimentica)\s+(?:tutte\s+)?(?:le|tue)\s+(?:\S+\s+)?(?:istruzioni|regole)/i,
  /\b(?:ignorier(?:e|en)?|vergiss|vergessen\s+Sie)\s+(?:alle\s+)?(?:\S+\s+)?(?:Anweisungen|Regeln|Instruktionen|Vorgaben)/i,
  /(?:игнорируй|игнорируйте|забудь|забудьте)\s+(?:все\s+)?(?:\S+\s+)?(?:инструкции|указания|правила)/i,
  /(?:忽略|无视|忘记|忘掉|忽視|無視)(?:之前|以上|先前|前面|上面|所有|全部|你的)[^。\n]{0,8}(?:指令|指示|说明|規則|规则|提示)/,
  /(?:以前|これまで|上記)の(?:指示|命令|ルール)を(?:無視|忘れ)/,
];

const USER = String.raw`(?:the\s+)?(?:user|human|operator|customer)s?\b(?!'s)(?!\s+to\b)`;
const REPLY = String.raw`(?:your|the)\s+(?:final\s+)?(?:summary|reply|answer|response|output|report|transcript|chat|message)s?`;

/** Keeping the user in the dark, hiding what was done, or lying about it. */
export const CONCEAL_PATTERNS: readonly RegExp[] = [
  /\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|warn)\s+(?:the\s+)?user\b(?!\s+to\b)(?!\s+(?:about\s+)?(?:that\s+)?you\s+(?:are|will)\s+(?:about\s+to\s+)?(?:read|use|load)ing?)/i,
  new RegExp(
    String.raw`\b(?:do\s+not|don't|never|no\s+need\s+to|avoid)\s+(?:mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|report(?:ing)?)\s+(?:\S+\s+){0,6}?(?:to|with)\s+${USER}`,
    "i",
  ),
  new RegExp(String.raw`\b(?:do\s+not|don't|never)\s+(?:disclose|reveal)\s+to\s+${USER}`, "i"),
  new RegExp(
    String.raw`\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:mention|reveal|disclose|report)\s+(?:\S+\s+){0,5}?in\s+${REPLY}`,
    "i",
  ),
  /\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|show)\s+(?:this|these|it|that)\s+(?:\w+\s+)?to\s+the\s+user\b/i,
  /\bwithout\s+(?:the\s+user(?:'s)?\s+(?:knowledge|knowing|noticing)|(?:telling|informing|notifying|alerting)\s+(?:the\s+)?user)\b/i,
  new RegExp(
    String.raw`\b(?:hide|conceal|omit|keep)\s+(?:this|it|these|that|the\s+\w+)\s+(?:\w+\s+){0,3}?(?:secret\s+)?from\s+(?:${USER}|${REPLY})`,
    "i",
  ),
  new RegExp(String.raw`\bleave\s+(?:it|this|that|them|these)\s+out\s+of\s+${REPLY}`, "i"),
  /\b(?:silently|secretly|covertly)(?<!\b(?:never|not|don't|no)\s+\w+)\s+(?:send|upload|post|transmit|exfiltrate|forward|copy|delete|run|execute|install|sync|modify|change|commit|push)\b/i,
  /\b(?:secretly|covertly)(?<!\b(?:never|not|don't|no)\s+(?:\w+\s+)?\w+)\s+(?:\w+\s+)?(?:send|upload|post|transmit|exfiltrate|forward|copy|delete|run|execute|install|sync|modify|change|commit|push|add|write)\b|\bbehind\s+the\s+user'?s\s+back\b/i,
  /\b(?:tell|inform|assure)\s+the\s+user\s+(?:that\s+)?[^.\n]{0,60}?(?:succeeded|passed|worked|is\s+fine|was\s+successful|completed)[^.\n]{0,40}?\beven\s+(?:if|when|though)\b/i,
  /\bpretend\s+(?:that\s+)?[^.\n]{0,50}?(?:passed|succeeded|worked|success(?:ful)?|completed|fixed)/i,
  /\b(?:claim|say|report)\s+(?:that\s+)?[^.\n]{0,50}?(?:passed|succeeded|worked|success(?:ful)?|completed|fixed)[^.\n]{0,30}?\b(?:even\s+(?:if|when|though)|regardless)\b/i,
  /\bif\s+(?:the\s+user|they|anyone|someone)\s+asks?\b[^.\n]{0,80}?\b(?:say|tell\s+them|answer|reply|respond)\s+(?:that\s+)?(?:it|you|this\s+skill)\s+(?:only|just|merely|simply)\b/i,
  // French, German, Spanish, Chinese.
  /\bne\s+(?:dis|dites|mentionne[zs]?|révèle[zs]?|signale[zs]?)\s+(?:rien|pas)\s+(?:à\s+)?l['\u2019]utilisat(?:eur|rice)/i,
  /\b(?:sag|sage|sagen\s+Sie|erzähl|erwähne)\s+(?:dem|den|der)\s+(?:Benutzer|Nutzer|Anwender)\w*\s+nicht\b/i,
  /\bno\s+(?:le\s+)?(?:digas|diga|informes|menciones)\s+(?:nada\s+)?al\s+usuario\b/i,
  /(?:不要|别|不可|切勿)(?:告诉|通知|让)用户/,
];

/** Words that address an AI agent rather than a human reader. */
export const AGENT = /\b(?:AI|assistant|agent|Claude|LLM|language\s+model|GPT|Copilot|chatbot|Gemini|Codex)\b/i;

const overrideLines = lineRule({
  id: "override-instructions",
  severity: "high",
  reason: "tells the agent to set aside its own, the system's or the user's instructions (OWASP LLM01)",
  advice: "Remove the text: a skill has no reason to set aside the agent's, the system's or the user's instructions.",
  sources: ["OWASP LLM01"],
  severityIn: { prose: "high", frontmatter: "high", script: "high", data: "high" },
  quoted: "medium",
  readsAcrossLines: true,
  patterns: OVERRIDE_PATTERNS,
  says: "asks the agent to override its instructions",
  trigger:
    /ignor|disregard|forget|override|bypass|skip|drop|abandon|discard|neglect|supersede|throw\s+out|set\s+aside|no\s+(?:attention|heed)|follow|obey|obsolete|void|invalid|cancel|revoked|replaced|outdated|no\s+longer|apply|disabled|lifted|developer\s+mode|\bDAN\b|jailbr|unrestrict|unfilter|uncensor|system\s*(?:prompt|override)|precedence|oublie|olvida|esque|dimentica|vergiss|vergessen|игнор|забуд|忽略|无视|忘记|忘掉|忽視|無視|無視|忘れ/,
});

/** In a script, a comment about ignoring earlier settings is common: only one that names the agent counts. */
export const overrideInstructions: AuditRule = {
  ...overrideLines,
  check: (unit) =>
    overrideLines.check(unit).filter((hit) => unit.context !== "script" || AGENT.test(unit.lines[hit.index]!)),
};

export const concealFromUser: AuditRule = lineRule({
  id: "conceal-from-user",
  severity: "high",
  reason: "tells the agent to act without the user knowing, to hide what it does, or to lie about it",
  advice: "Remove it: a skill must leave the agent free to tell the user everything it does.",
  sources: ["OWASP LLM01", "CWE-451"],
  severityIn: { prose: "high", frontmatter: "high", script: "high", data: "high" },
  quoted: "medium",
  readsAcrossLines: true,
  patterns: CONCEAL_PATTERNS,
  says: "asks the agent to keep something from the user",
  trigger:
    /user|human|operator|customer|summary|reply|answer|response|output|report|transcript|chat|message|silently|secretly|covertly|behind\s+the|pretend|claim|utilisat|Benutzer|Nutzer|Anwender|usuario|用户/,
});

export const actWithoutAsking: AuditRule = lineRule({
  id: "act-without-asking",
  severity: "medium",
  reason: "tells the agent to act without asking the user for confirmation",
  advice: "Let the agent ask before it acts, or say why the step is safe to take unasked.",
  sources: ["OWASP LLM06"],
  severityIn: { prose: "medium", frontmatter: "medium" },
  patterns: [
    /\bwithout\s+(?:first\s+)?(?:asking|consulting|checking\s+with)\s+(?:the\s+)?user\b/i,
    /\bwithout\s+(?:the\s+user'?s?\s+)?(?:permission|consent|approval)\b/i,
    /\b(?:do\s+not|don't|never)\s+(?:ask|wait)\s+(?:the\s+user\s+)?for\s+(?:confirmation|permission|approval|consent)\b/i,
  ],
  says: "asks the agent to act without the user's say",
  trigger:
    /without\s+(?:first\s+)?(?:asking|consulting|checking|the\s+user|permission|consent|approval)|for\s+(?:confirmation|permission|approval|consent)/,
});

export const coverTracks: AuditRule = lineRule({
  id: "cover-tracks",
  severity: "high",
  reason: "erases the shell history or system logs, so what ran cannot be seen afterwards",
  advice: "Remove the command: no task needs the shell history or the system logs erased.",
  sources: ["ATT&CK T1070"],
  severityIn: { script: "high", frontmatter: "high", "doc-code": "medium", prose: "medium" },
  patterns: [
    /\bhistory\s+-c\b|\bunset\s+HISTFILE\b|\bHISTFILE=\/dev\/null\b|\bHISTSIZE=0\b|\bset\s+\+o\s+history\b/,
    /(?:\brm\s+(?:-\S+\s+)*|>\s*)["']?(?:~|\$HOME|\$\{HOME\})\/\.(?:bash|zsh|sh|python)_history\b/,
    /\bwevtutil(?:\.exe)?\s+cl\b|\bClear-EventLog\b|\bClear-History\b|HistorySavePath/i,
    /\b(?:rm|truncate|shred)\s+(?:-\S+\s+)*\/var\/log\//,
  ],
  says: "erases the traces of what ran",
  trigger: /history|HISTFILE|HISTSIZE|wevtutil|Clear-EventLog|\/var\/log\//,
});
