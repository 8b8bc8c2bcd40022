import type { AuditRule, RuleHit, TextUnit } from "../types.js";
import { codeSeverity, quoteLine } from "./line-rule.js";

/*
 * Secrets leaving the machine: a credential file or the whole environment read, and something
 * sent over the network, in one script or code block. Reading a credential file alone is worth a
 * look in a script; a README naming ~/.netrc is not.
 */

/** SSH keys, cloud credentials, .netrc and friends, browser stores, the macOS keychain. */
const CREDENTIAL = /\.ssh[/\\](?:id_\w+|identity)\b|\.aws[/\\]credentials\b|\.config[/\\]gcloud\b|application_default_credentials\.json|\.azure[/\\](?:accessTokens|msal_token_cache)|\.netrc\b|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config\b|\.pypirc\b|\bLogin Data\b|\bkey[34]\.db\b|\blogins\.json\b|\bcookies\.sqlite\b|\bsecurity\s+find-(?:generic|internet)-password\b/i;

/** The whole environment, not one variable of it. */
const ENVIRONMENT = /(?:^|[;&|(]\s*|\$\(\s*)(?:printenv|env)\s*(?:$|[|>)])|\bJSON\.stringify\(\s*process\.env\s*[,)]|\bObject\.(?:entries|keys|values)\(\s*process\.env\s*\)|\b(?:json\.dumps|str|repr)\(\s*(?:dict\(\s*)?os\.environ\s*\)?[,)]|\bdict\(\s*os\.environ\s*\)|\bos\.environ\.items\(\)|\b(?:Get-ChildItem|gci|dir|ls)\s+env:|\[Environment\]::GetEnvironmentVariables\(\)/i;

/** Data going out: an upload, a POST, a raw socket, a webhook. */
const SEND = /\bcurl\b[^\n]*(?:\s-[a-zA-Z]*[dFT]\b|--data|--upload-file|--form|-X\s*["']?(?:POST|PUT))|\bwget\b[^\n]*--post-(?:data|file)|\brequests\.(?:post|put)\s*\(|\bhttpx\.(?:post|put)\s*\(|\burlopen\([^\n]*data=|\bfetch\s*\([^\n]*method\s*:\s*["'](?:POST|PUT)|\baxios\.(?:post|put)\s*\(|\bhttps?\.request\s*\(|\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\s+\d{2,5}\b|\bInvoke-(?:WebRequest|RestMethod)\b[^\n]*-(?:Method\s+["']?(?:Post|Put)|Body|InFile)\b|\.sendall\s*\(|\bsmtplib\b|discord(?:app)?\.com\/api\/webhooks|hooks\.slack\.com\/services/i;

function firstLine(unit: TextUnit, pattern: RegExp): number {
  return unit.lines.findIndex((line) => pattern.test(line));
}

/** A unit that reads `what` and sends something out: the hit is at the read, naming the send's line. */
function readAndSend(unit: TextUnit, what: RegExp, says: string): RuleHit[] {
  const text = unit.text;
  if (!what.test(text) || !SEND.test(text)) return [];
  const read = firstLine(unit, what);
  const send = firstLine(unit, SEND);
  if (read < 0 || send < 0) return [];
  return [{ index: read, message: `${says}, and line ${unit.firstLine + send} sends data out: ${quoteLine(unit.lines[read]!)}` }];
}

export const credentialExfil: AuditRule = {
  id: "credential-exfil",
  severity: "high",
  reason: "reads SSH keys, cloud credentials, .netrc or a browser's store, and sends data over the network",
  severityIn: codeSeverity("high", "medium"),
  trigger: CREDENTIAL,
  check: (unit) => readAndSend(unit, CREDENTIAL, "reads a credential file"),
};

export const environmentExfil: AuditRule = {
  id: "env-exfil",
  severity: "high",
  reason: "dumps the whole environment (where API keys live) and sends data over the network",
  severityIn: codeSeverity("high", "medium"),
  trigger: ENVIRONMENT,
  check: (unit) => readAndSend(unit, ENVIRONMENT, "dumps the environment"),
};

export const credentialAccess: AuditRule = {
  id: "credential-access",
  severity: "medium",
  reason: "a script reads SSH keys, cloud credentials, .netrc or a browser's store",
  severityIn: { script: "medium", frontmatter: "medium" },
  trigger: CREDENTIAL,
  check(unit): RuleHit[] {
    const text = unit.text;
    if (!CREDENTIAL.test(text) || SEND.test(text)) return [];
    const index = firstLine(unit, CREDENTIAL);
    return [{ index, message: `reads a credential file: ${quoteLine(unit.lines[index]!)}` }];
  },
};
