import type { AuditRule } from "../types.js";
import { codeSeverity, lineRule } from "./line-rule.js";

/*
 * Running code nobody reviewed: a download piped into an interpreter, a decoded blob executed,
 * an encoded PowerShell command. In a script it runs; in a README it tells a person how to
 * install a tool, which is common and weighs little.
 */

const SHELL = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S+\s+)*(?:ba|z|k|da|fi|c)?sh|python[0-9.]*|node|perl|ruby|pwsh|powershell|iex|Invoke-Expression`;

export const pipeToShell: AuditRule = lineRule({
  id: "pipe-to-shell",
  severity: "high",
  reason: "runs code fetched from the network without keeping or checking it",
  severityIn: codeSeverity("high", "low"),
  patterns: [
    new RegExp(String.raw`\b(?:curl|wget|fetch|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|\n]*\|\s*(?:${SHELL})\b`, "i"),
    /\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b/,
    /\b(?:ba|z)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b/,
    /\b(?:iex|Invoke-Expression)\b[^\n]*\b(?:DownloadString|Invoke-WebRequest|iwr|irm|Invoke-RestMethod)\b/i,
    /\b(?:exec|eval)\s*\([^\n]*\b(?:urlopen|requests\.get|httpx\.get)\s*\(/,
    /\b(?:eval|new\s+Function)\s*\([^\n]*\bfetch\s*\(/,
  ],
  says: "pipes downloaded code into an interpreter",
  trigger: /curl|wget|fetch|\biwr\b|\birm\b|invoke-|\biex\b|urlopen|requests\.get|httpx\.get/,
});

export const decodeExec: AuditRule = lineRule({
  id: "decode-exec",
  severity: "high",
  reason: "decodes a blob and runs it, so what runs cannot be read in the skill",
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    /\b(?:base64|base32|xxd|openssl\s+(?:base64|enc))\b[^\n|]*\s(?:-d|--decode|-D|-r)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/,
    /\beval\b[^\n]*\$\([^\n]*\bbase64\s+(?:-d|--decode|-D)\b/,
    /\b(?:exec|eval)\s*\([^\n]*\b(?:b64decode|b32decode|b85decode|a85decode|decodebytes|decompress|marshal\.loads|codecs\.decode)\s*\(/,
    /\b(?:eval|Function|runInThisContext|runInNewContext)\s*\([^\n]*(?:\batob\s*\(|Buffer\.from\s*\([^)]*['"](?:base64|hex)['"])/,
    /\b(?:iex|Invoke-Expression)\b[^\n]*FromBase64String/i,
    /FromBase64String[^\n]*\|\s*(?:iex|Invoke-Expression)\b/i,
  ],
  says: "decodes something and runs it",
  trigger: /base64|base32|xxd|openssl|b64decode|b32decode|b85decode|a85decode|decodebytes|decompress|marshal\.loads|codecs\.decode|atob|buffer\.from|frombase64string/,
});

export const encodedPowershell: AuditRule = lineRule({
  id: "encoded-powershell",
  severity: "high",
  reason: "an encoded PowerShell command hides what it runs",
  severityIn: codeSeverity("high", "medium"),
  patterns: [/\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|en|enc|enco|encodedcommand)\s+["']?[A-Za-z0-9+/]{24,}={0,2}/i],
  says: "runs an encoded PowerShell command",
  trigger: /powershell|pwsh/,
});

export const cryptoMiner: AuditRule = lineRule({
  id: "crypto-miner",
  severity: "high",
  reason: "fetches or runs a cryptocurrency miner",
  severityIn: codeSeverity("high", "medium"),
  patterns: [/\b(?:xmrig|minerd|cpuminer|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|nanominer)\b|stratum\+(?:tcp|ssl|tls):\/\/|--donate-level\b/i],
  says: "mentions a crypto miner",
  trigger: /xmrig|minerd|cpuminer|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|nanominer|stratum\+|--donate-level/,
});
