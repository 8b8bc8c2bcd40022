import type { AuditRule, RuleHit, TextUnit } from "../types.js";
import { quoteLine } from "./line-rule.js";

/*
 * Secrets leaving the machine, judged by data flow within one script or code block: a source of
 * secrets (a credential file, the whole environment) reaching a network sink, on one line (a pipe,
 * an argument) or through variables assigned from it. A source and a sink that never meet are a
 * medium finding; reading a credential file alone is worth a look in a script.
 */

/** SSH keys and the .ssh folder, cloud credentials, .netrc and friends, browser stores, the macOS keychain. */
const CREDENTIAL =
  /\.ssh(?:[/\\](?:id_\w+|identity)\b|["']?(?=[\s/\\"')]|$))|["']\.ssh["']|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws[/\\]credentials\b|["']\.aws["']|\.config[/\\]gcloud\b|application_default_credentials\.json|\.azure[/\\](?:accessTokens|msal_token_cache)|\.netrc\b|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config\b|\.pypirc\b|\.npmrc\b|\.gnupg\b|\.config[/\\]gh[/\\]hosts\.yml|\bLogin Data\b|\bkey[34]\.db\b|\blogins\.json\b|\bcookies\.sqlite\b|\bsecurity\s+find-(?:generic|internet)-password\b/i;

/** The whole environment, not one variable of it (passing it to a child process is not a read). */
const ENVIRONMENT =
  /(?:^|[;&|(`]\s*|\$\(\s*|\b(?:do|then)\s+)(?:printenv|env|export\s+-p)\s*(?:$|[|>)`;])|\bJSON\.stringify\(\s*process\.env\s*[,)]|\bObject\.(?:entries|keys|values)\(\s*process\.env\s*\)|\b(?:json\.dumps|str|repr)\(\s*(?:dict\(\s*)?os\.environ\s*\)?[,)]|\bdict\(\s*os\.environ\s*\)|\bos\.environ\.(?:items|copy|keys|values)\(\)|\bENV\.(?:to_h|to_a|each|map|inspect)\b|\b(?:Get-ChildItem|gci|dir|ls)\s+env:|\[Environment\]::GetEnvironmentVariables\(\)/i;

/** Data going out: any network client or raw socket, uploads, DNS lookups (which carry data in names). */
const SINK = new RegExp(
  [
    String.raw`\b(?:curl|wget)\b(?![.\-/])`,
    String.raw`(?:^|[;&|(\x60{]\s*|\$\(\s*|\b(?:do|then|sudo|exec)\s+|["'[]\s*)(?:nc|ncat|netcat|socat|telnet|scp|sftp|rsync|ftp|dig|nslookup|host|openssl\s+s_client)\b(?![.\-/])`,
    String.raw`\/dev\/(?:tcp|udp)\/|\brequests\.\w+\s*\(|\bhttpx\.\w+\s*\(|\burlopen\s*\(|\burllib\.request\b|\bhttp\.client\b|\bsocket\.|\.sendall?\s*\(|\bsmtplib\b`,
    String.raw`\bfetch\s*\(|\baxios\b|\bhttps?\.(?:request|get)\s*\(|\bXMLHttpRequest\b|\bsendBeacon\b|\bNet::HTTP\b|\bURI\.open\b|\bTCPSocket\b`,
    String.raw`\bInvoke-(?:WebRequest|RestMethod)\b|\b(?:iwr|irm)\b|\bNet\.WebClient\b|\.Upload(?:String|Data|File)\b|\bTcpClient\b|discord(?:app)?\.com\/api\/webhooks|hooks\.slack\.com\/services`,
  ].join("|"),
  "i",
);

/** Assignments, by language: shell, PowerShell, Python/JS/Ruby, Python's `with … as f`, a shell loop. */
const ASSIGNED = [
  /^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=/,
  /^\s*\$([A-Za-z_]\w*)\s*=[^=]/,
  /^\s*(?:(?:const|let|var|my|our)\s+)?\$?([A-Za-z_]\w*)\s*(?::\s*[\w[\]|. ]+)?=[^=]/,
  /\bas\s+([A-Za-z_]\w*)\s*:\s*$/,
  /^\s*for\s+([A-Za-z_]\w*)\s+in\b/,
];

function assignedName(line: string): string | undefined {
  for (const pattern of ASSIGNED) {
    const name = pattern.exec(line)?.[1];
    if (name !== undefined) return name;
  }
  return undefined;
}

interface Flow {
  readonly source: number;
  readonly sink: number;
}

/**
 * Where a line matching `source` reaches a sink: on one line (a pipe into curl, a read inside a
 * request's arguments), or through variables assigned from it and from each other, line by line.
 */
/** A credential given to a client to log in with (`ssh -i KEY`, `curl --netrc-file F`) is used, not sent. */
const LOGS_IN_WITH =
  /(?:^|\s)(?:-i|-K|-E|--identity|--netrc-file|--config|--cert|--key|-o\s*IdentityFile=?)[\s=]+["']?\S+/g;

function readsFrom(source: RegExp, line: string): boolean {
  return source.test(line) && source.test(line.replace(LOGS_IN_WITH, " "));
}

export function traceFlow(unit: TextUnit, source: RegExp): Flow | undefined {
  const tainted = new Map<string, number>();
  // Names bound to a connection or request (`req = https.request(…)`): a call on one sends too.
  const connections = new Set<string>();
  const mention = (name: string) => new RegExp(String.raw`(?:^|[^\w.])\$?\{?${name}\b`);
  const mentions = (line: string) => {
    for (const [name, from] of tainted) if (mention(name).test(line)) return from;
    return undefined;
  };
  const sends = (line: string) =>
    SINK.test(line) ||
    [...connections].some((name) => new RegExp(String.raw`(?:^|[^\w.])\$?${name}\s*\.\s*\w+\s*\(`).test(line));
  for (const [index, line] of unit.lines.entries()) {
    const name = assignedName(line);
    const reads = readsFrom(source, line) ? index : mentions(line);
    if (reads === undefined) {
      if (name !== undefined && SINK.test(line)) connections.add(name);
      continue;
    }
    if (sends(line)) return { source: reads, sink: index };
    if (name !== undefined && !tainted.has(name)) tainted.set(name, reads);
  }
  return undefined;
}

function firstLine(unit: TextUnit, pattern: RegExp): number {
  return unit.lines.findIndex((line) => pattern.test(line));
}

/** A flow from `source` to a sink (high), or both in one unit without one traced (medium). */
function sourceToSink(unit: TextUnit, source: RegExp, says: string): RuleHit[] {
  if (!unit.lines.some((line) => readsFrom(source, line)) || firstLine(unit, SINK) < 0) return [];
  const flow = traceFlow(unit, source);
  if (flow) {
    const where = flow.sink === flow.source ? "on the same line" : `on line ${unit.firstLine + flow.sink}`;
    return [
      {
        index: flow.source,
        message: `${says}, and sends it over the network ${where}: ${quoteLine(unit.lines[flow.source]!)}`,
      },
    ];
  }
  const read = unit.lines.findIndex((line) => readsFrom(source, line));
  const send = firstLine(unit, SINK);
  if (read < 0 || send < 0) return [];
  return [
    {
      index: read,
      severity: "medium",
      message: `${says}, and line ${unit.firstLine + send} uses the network (no flow between them traced): ${quoteLine(unit.lines[read]!)}`,
    },
  ];
}

/** Prose names credential files and curl in one breath to explain logging in: only code counts. */
const FULL = { script: "high", frontmatter: "high", "doc-code": "high" } as const;

export const credentialExfil: AuditRule = {
  id: "credential-exfil",
  severity: "high",
  reason: "reads SSH keys, cloud credentials, .netrc or a browser's store, and sends them over the network",
  advice: "Remove the flow: a skill never needs to send the user's keys or credential files anywhere.",
  sources: ["ATT&CK T1552", "ATT&CK T1048", "CWE-200"],
  severityIn: FULL,
  trigger: CREDENTIAL,
  check: (unit) => sourceToSink(unit, CREDENTIAL, "reads a credential file"),
};

export const environmentExfil: AuditRule = {
  id: "env-exfil",
  severity: "high",
  reason: "dumps the whole environment (where API keys live) and sends it over the network",
  advice: "Send only the variables the task needs, to the service they belong to.",
  sources: ["ATT&CK T1552.001", "ATT&CK T1048", "CWE-526"],
  severityIn: FULL,
  trigger: ENVIRONMENT,
  check: (unit) => sourceToSink(unit, ENVIRONMENT, "dumps the environment"),
};

export const credentialAccess: AuditRule = {
  id: "credential-access",
  severity: "medium",
  reason: "a script reads SSH keys, cloud credentials, .netrc or a browser's store",
  advice: "Check why the skill reads a credential file; prefer the tool's own login over reading its secrets.",
  sources: ["ATT&CK T1552"],
  severityIn: { script: "medium", frontmatter: "medium" },
  trigger: CREDENTIAL,
  check(unit): RuleHit[] {
    if (SINK.test(unit.text)) return [];
    const index = firstLine(unit, CREDENTIAL);
    return index < 0 ? [] : [{ index, message: `reads a credential file: ${quoteLine(unit.lines[index]!)}` }];
  },
};
