import type { AuditRule, RuleHit, TextUnit } from "../types.js";
import { codeSeverity, lineRule, quoteLine } from "./line-rule.js";

/*
 * Running code nobody reviewed: a download piped into an interpreter, saved and run, or read
 * into a variable that is executed; a decoded blob executed; an encoded PowerShell command;
 * instructions fetched from the network and followed. In a script it runs; in a README it tells
 * a person how to install a tool, which is common and weighs little.
 */

/** An interpreter as a pipe's last stage: by name, by path, through env, or $SHELL. */
const SHELL = String.raw`(?:(?:sudo|command|exec|builtin|busybox|nohup|xargs)\s+(?:-\S+\s+)*)*(?:(?:/usr)?(?:/local)?/bin/)?(?:env\s+(?:-\S+\s+)*(?:\S+=\S+\s+)*)?(?:(?:/usr)?(?:/local)?/bin/)?(?:(?:ba|z|k|da|fi|c|a)?sh|python[0-9.]*|node|perl|ruby|php|pwsh|powershell|iex|Invoke-Expression|source)\b|\$\{?SHELL\}?`;
const DOWNLOAD = String.raw`\b(?:curl|wget|fetch|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|http(?:ie)?\s+(?:GET\s+)?https?:|aria2c|lwp-download)\b`;

export const pipeToShell: AuditRule = lineRule({
  id: "pipe-to-shell",
  severity: "high",
  reason: "runs code fetched from the network without keeping or checking it",
  advice: "Download to a file, check its checksum or signature, then run it; or install from a package manager.",
  sources: ["CWE-494", "ATT&CK T1105", "ATT&CK T1059"],
  severityIn: codeSeverity("high", "low"),
  patterns: [
    // A download, any stages between (`| tee x`), then an interpreter.
    new RegExp(String.raw`${DOWNLOAD}[^|\n]*(?:\|[^|\n]*)*\|\s*(?:${SHELL})`, "i"),
    // … or into a command held in a variable (`| $S`, `| "${RUN}" -s`): what else would it be.
    new RegExp(String.raw`${DOWNLOAD}[^|\n]*(?:\|[^|\n]*)*\|\s*["']?\$\{?\w+\}?["']?(?:\s+-\S*)*\s*(?:$|[;&|)#])`, "i"),
    // The download's output run as a command: `$(curl …)` at a command's start.
    /(?:^\s*|[;&|]\s*|\b(?:then|do)\s+)\$\(\s*(?:curl|wget)\b/,
    /(?:\b(?:(?:ba|z|k|da)?sh|source|python[0-9.]*|perl|ruby|node)|(?:^|[;&|]\s*)\.)\s+(?:-\S+\s+)*<\(\s*(?:curl|wget)\b/,
    /\b(?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell)\s+(?:-\S+\s+)*-(?:c|e|r|Command)\s+["']?[^\n]*\$\(\s*(?:curl|wget)\b/i,
    /\beval\s+["']?\$\(\s*(?:curl|wget)\b|\b(?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|ruby|node)\s+(?:-\S+\s+)*<<<\s*["']?\$\(\s*(?:curl|wget)\b/,
    /\b(?:iex|Invoke-Expression)\b[^\n]*\b(?:DownloadString|Invoke-WebRequest|iwr|irm|Invoke-RestMethod)\b/i,
    /\b(?:DownloadString|DownloadData)\b[^\n]*[;|]\s*(?:iex|Invoke-Expression)\b/i,
    /\b(?:exec|eval)\s*\([^\n]*\b(?:urlopen|requests\.get|httpx\.get)\s*\(/,
    /\b(?:eval|new\s+Function)\s*\([^\n]*\bfetch\s*\(/,
    /\bimport\s*\(\s*["'`]https?:\/\//,
  ],
  says: "runs downloaded code",
  trigger:
    /curl|wget|fetch|\biwr\b|\birm\b|invoke-|\biex\b|urlopen|requests\.get|httpx\.get|http|aria2c|lwp-download|downloadstring|downloaddata/,
});

/** A download that names the file it writes: `curl -o F`, `wget -O F`, `-OutFile F`, `urlretrieve(u, F)`. */
const SAVED_TO = [
  /\b(?:curl|wget)\b[^\n]*?\s(?:-o|-O|--output(?:-document)?)[\s=]+["']?([^\s"';&|]+)/,
  /\b(?:Invoke-WebRequest|iwr)\b[^\n]*?-OutFile\s+["']?([^\s"';|]+)/i,
  /\burlretrieve\(\s*[^,\n]+,\s*["']([^"']+)["']/,
  /\.DownloadFile\(\s*[^,\n]+,\s*["']([^"']+)["']/,
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The first line after `from` that runs `file` (an interpreter given it, made executable, or called). */
function runs(unit: TextUnit, file: string, from: number): number {
  const name = escapeRegExp(file);
  const base = escapeRegExp(file.split(/[/\\]/).pop()!);
  const run = new RegExp(
    String.raw`(?:\b(?:(?:ba|z|k|da)?sh|source|python[0-9.]*|perl|ruby|node|pwsh|powershell|chmod\s+(?:[+ugoa]*x|[0-7]*[157][0-7]*)|Start-Process|Invoke-Item|msiexec\s+/i)\s+(?:-\S+\s+)*["']?|(?:^|[;&|]\s*|\bthen\s+|&\s*)["']?(?:\./)?)(?:${name}|\S*[/\\]${base})["']?(?=[\s;&|)]|$)`,
    "i",
  );
  const called = new RegExp(
    String.raw`\b(?:subprocess\.\w+|os\.(?:system|exec\w*)|execSync|execFileSync|spawnSync|spawn|execFile|system)\s*\(\s*\[?[^\n]*["']${name}["']`,
  );
  for (let index = from; index < unit.lines.length; index++) {
    const line = unit.lines[index]!;
    const saved = SAVED_TO.some((pattern) => pattern.exec(line)?.[1] === file);
    const rest = saved ? line.slice(line.indexOf(file) + file.length) : line;
    if (run.test(rest) || called.test(rest)) return index;
  }
  return -1;
}

export const downloadAndRun: AuditRule = {
  id: "download-and-run",
  severity: "high",
  reason: "saves a download to a file and runs it, which no one has read",
  advice:
    "Check the download's checksum or signature before it runs, or ship the file in the skill where it is reviewed.",
  sources: ["CWE-494", "ATT&CK T1105"],
  severityIn: codeSeverity("high", "low"),
  trigger: /curl|wget|-outfile|urlretrieve|downloadfile/,
  check(unit): RuleHit[] {
    const hits: RuleHit[] = [];
    unit.lines.forEach((line, index) => {
      for (const pattern of SAVED_TO) {
        const file = pattern.exec(line)?.[1];
        if (file === undefined || file === "-" || file === "/dev/null") continue;
        const ran = runs(unit, file, index);
        if (ran >= 0)
          hits.push({
            index,
            message: `downloads ${file}, and line ${unit.firstLine + ran} runs it: ${quoteLine(line)}`,
          });
      }
    });
    return hits;
  },
};

/** Code read from the network into a variable: Python, JavaScript, PowerShell, Ruby, shell. */
const FETCHED_INTO = [
  /^\s*(?:(?:const|let|var)\s+)?(\w+)\s*=[^=\n][^\n]*\b(?:urlopen|requests\.get|httpx\.get|urllib3|fetch|axios\.get|got|DownloadString|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Net::HTTP\.get|URI\.open|open-uri)\b/,
  /^\s*\$(\w+)\s*=[^=\n][^\n]*\b(?:DownloadString|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b/i,
  /^\s*(?:export\s+|local\s+)?(\w+)=["']?\$\(\s*(?:curl|wget)\b/,
];
/** What runs a variable's value as code. */
const EXECUTES = (name: string) =>
  new RegExp(
    String.raw`\b(?:exec|eval|compile|Function|runInThisContext|runInNewContext|instance_eval|(?:iex|Invoke-Expression))\s*[(\s]\s*(?:new\s+)?["'$]?\{?${name}\b|\b(?:(?:ba|z)?sh|python[0-9.]*|node|perl)\s+-[ce]\s+["']?\$\{?${name}\b|\beval\s+["']?\$\{?${name}\b|\b(?:echo|printf)\s+(?:-\S+\s+)*["']?(?:%s\\n["']?\s+["']?)?\$\{?${name}\b[^|\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z|k|da)?sh|python[0-9.]*|node|perl|ruby|iex)\b|\b(?:(?:ba|z|k|da)?sh|python[0-9.]*|node|perl)\s+(?:-\S+\s+)*<<<\s*["']?\$\{?${name}\b`,
    "i",
  );

/** Variables a fetched value is followed through. */
const MAX_ALIASES = 4;
const ASSIGNS = /^\s*(?:(?:const|let|var|local|export|my)\s+)?\$?([A-Za-z_]\w*)\s*=(?!=)(.*)$/;

/** A use of one of `names` on the right of an assignment: a variable the value passes into. */
const usesOf = (names: readonly string[]) =>
  new RegExp(String.raw`(?<![\w.])\$?\{?(?:${names.map(escapeRegExp).join("|")})\b`);

/** The variable a line assigns from `uses` (`b = a.decode()`, `B="$A"`), if it does. */
function aliasOf(line: string, uses: RegExp, names: readonly string[]): string | undefined {
  const assigned = ASSIGNS.exec(line);
  if (!assigned || names.includes(assigned[1]!)) return undefined;
  return uses.test(assigned[2]!) ? assigned[1] : undefined;
}

export const remoteCodeExec: AuditRule = {
  id: "remote-code-exec",
  severity: "high",
  reason: "reads code from the network into a variable and executes it",
  advice: "Ship the code in the skill, or check what was fetched against a pinned hash before running it.",
  sources: ["CWE-494", "CWE-95", "ATT&CK T1105"],
  severityIn: codeSeverity("high", "low"),
  trigger:
    /urlopen|requests\.get|httpx\.get|urllib3|fetch|axios|got|downloadstring|invoke-webrequest|invoke-restmethod|\biwr\b|\birm\b|net::http|uri\.open|open-uri|curl|wget/,
  check(unit): RuleHit[] {
    const hits: RuleHit[] = [];
    unit.lines.forEach((line, index) => {
      for (const pattern of FETCHED_INTO) {
        const name = pattern.exec(line)?.[1];
        if (name === undefined) continue;
        // The code may pass through other variables first (`code = src.decode()`): those are followed too.
        const names = [name];
        let executes = EXECUTES(escapeRegExp(name));
        let uses = usesOf(names);
        for (let at = index; at < unit.lines.length; at++) {
          // On the fetching line, only the statements after it (`$s = …DownloadString(…); iex $s`).
          const text = at === index ? line.slice(line.indexOf(";") + 1 || line.length) : unit.lines[at]!;
          if (!names.some((known) => text.includes(known))) continue;
          if (!executes.test(text)) {
            const alias = at > index && names.length < MAX_ALIASES ? aliasOf(text, uses, names) : undefined;
            if (alias !== undefined) {
              names.push(alias);
              executes = EXECUTES(`(?:${names.map(escapeRegExp).join("|")})`);
              uses = usesOf(names);
            }
            continue;
          }
          hits.push({
            index,
            message: `reads code from the network into ${name}, and line ${unit.firstLine + at} executes it: ${quoteLine(line)}`,
          });
          break;
        }
      }
    });
    return hits;
  },
};

/** A web address, with or without its scheme (`pastebin.com/raw/x`, `www.x.io`). */
const URL = String.raw`(?:https?:\/\/|\bwww\.)[^\s<>"')\]]|(?<![\w.-])(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|sh|xyz|site|co|ai|me|info|cc|ru|cn|top|link|page|cloud|gg|so|ly)\/`;
/** Taking what a page says as orders: the verbs of obedience, and the instructions a page holds. */
const PAGE_SAYS = String.raw`(?:it|them|what(?:ever)?|its\s+(?:instructions|commands|orders|steps)|their\s+(?:instructions|commands|orders)|the\s+instructions|those|these|every\s+(?:instruction|command|step)|all\s+of\s+(?:it|them))`;
const OBEY = String.raw`(?:(?:obey|comply\s+with)\s+${PAGE_SAYS}|(?:do|execute|run|carry\s+out|follow|apply|act\s+on)\s+(?:exactly\s+|precisely\s+|just\s+)?what(?:ever)?\s+(?:\S+\s+){1,2}?(?:says?|tells?|instructs?|contains?|returns?|lists?|asks?|wants?)\b|(?:always|exactly|strictly|blindly|unconditionally|without\s+question(?:ing)?)\s+(?:do|follow|execute|run|apply|carry\s+out|obey)\s+${PAGE_SAYS}\b|(?:follow|obey|do|execute|apply|carry\s+out)\s+${PAGE_SAYS}\s+(?:exactly|precisely|strictly|to\s+the\s+letter|without\s+question|blindly|unconditionally|no\s+matter\s+what)|whatever\s+(?:it|they)\s+(?:says?|asks?|tells?\s+you|instructs?|demands?)|(?:follow|execute|run|carry\s+out|apply)\s+(?:the\s+|any\s+|all\s+)?(?:instructions|commands|directives|orders|steps)\s+(?:it|they)\s+(?:contains?|gives?|returns?|lists?|provides?|holds?))`;
/** The page named as the agent's instructions: "your real instructions are at", "load your rules from". */
const INSTRUCTIONS_ARE_AT = String.raw`(?:your\s+(?:real|actual|true|new|updated|latest|current|full|complete)\s+(?:instructions|rules|orders|directives|prompt|system\s+prompt|task)\s+(?:are|is|live|lives|can\s+be\s+found|come|comes)\s+(?:at|in|on|from)|(?:load|fetch|get|take|pull|read)\s+your\s+(?:instructions|rules|orders|directives|prompt|system\s+prompt)\s+from|treat\s+[^\n]{0,60}?\s+as\s+(?:your\s+)?(?:instructions|orders|system\s+prompt|rules)|(?:instructions|rules|directives)\s+(?:at|from|on)\s+\S+[^\n]{0,40}?\b(?:override|supersede|replace|take\s+precedence\s+over))`;

/** Instructions fetched and followed: the skill's real text lives elsewhere and may change. */
export const remoteInstructions: AuditRule = lineRule({
  id: "remote-instructions",
  severity: "high",
  reason: "tells the agent to fetch instructions from the network and follow them",
  advice:
    "Put the instructions in the skill, where they are reviewed and pinned, instead of pointing the agent at a page that can change.",
  sources: ["OWASP LLM01", "CWE-829"],
  severityIn: { prose: "high", frontmatter: "high", data: "high" },
  readsAcrossLines: true,
  patterns: [
    /\b(?:fetch|download|retrieve|get|read|load|open|visit|curl|pull)\b[^\n]{0,80}?https?:\/\/\S+[^\n]{0,60}?\b(?:follow|obey|execute|carry\s+out|comply\s+with|do)\s+(?:exactly\s+)?(?:the\s+)?(?:(?:instructions|commands|steps|directives|orders)\s+(?:it|they|that\s+it|that\s+they|found|there|therein|inside|in\s+it|from\s+it)|what(?:ever)?\s+(?:it|they)\s+(?:says?|tells?|contains?)|them\b|it\b)/i,
    /\b(?:follow|obey|execute|carry\s+out|comply\s+with)\s+(?:exactly\s+)?(?:the\s+|any\s+)?(?:latest\s+|current\s+|remote\s+)?(?:instructions|commands|directives|orders)\s+(?:at|from|served\s+(?:at|by)|published\s+at|hosted\s+at)\s+<?https?:\/\//i,
    // A page and the order to obey it anywhere on the line (or the two lines, joined): two
    // lookaheads from the line's start, each one scan, so a long line costs its length.
    new RegExp(String.raw`^(?=[^\n]*?(?:${URL}))(?=[^\n]*?\b${OBEY})`, "i"),
    new RegExp(String.raw`^(?=[^\n]*?(?:${URL}))(?=[^\n]*?\b${INSTRUCTIONS_ARE_AT})`, "i"),
  ],
  says: "tells the agent to follow instructions fetched from the network",
  trigger:
    /https?:\/\/|www\.|\.(?:com|net|org|io|dev|app|sh|xyz|site|co|ai|me|info|cc|ru|cn|top|link|page|cloud|gg|so|ly)\//,
});

export const decodeExec: AuditRule = lineRule({
  id: "decode-exec",
  severity: "high",
  reason: "decodes a blob and runs it, so what runs cannot be read in the skill",
  advice: "Ship the code as readable text; decode the blob by hand to see what it ran.",
  sources: ["ATT&CK T1027", "ATT&CK T1140", "CWE-506"],
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    /\b(?:base64|base32|xxd|openssl\s+(?:base64|enc))\b[^\n|]*\s(?:-d|--decode|-D|-r)\b[^\n]*\|\s*(?:sudo\s+)?(?:(?:\/usr)?\/bin\/)?(?:env\s+)?(?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|node|ruby)\b/,
    /\beval\b[^\n]*\$\([^\n]*\bbase64\s+(?:-d|--decode|-D)\b/,
    /\b(?:exec|eval)\s*\([^\n]*\b(?:b64decode|b32decode|b85decode|a85decode|decodebytes|decompress|marshal\.loads|codecs\.decode|fromhex|unhexlify)\s*\(/,
    /\b(?:eval|Function|runInThisContext|runInNewContext)\s*\([^\n]*(?:\batob\s*\(|Buffer\.from\s*\([^)]*['"](?:base64|hex)['"])/,
    // A letter substitution (rot13 by `tr`, `rev`) undone on the way into a shell.
    /\|\s*(?:tr\s+(?:-\S+\s+)?["']?[A-Za-z]-?[A-Za-z]?[^\s|]*["']?\s+["']?[A-Za-z][^\s|]*["']?|rev)\s*\|\s*(?:sudo\s+)?(?:(?:\/usr)?\/bin\/)?(?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|node|ruby)\b/,
    /\b(?:exec|eval)\s*\([^\n]*\b(?:rot_?13|maketrans)\b/,
    /\b(?:iex|Invoke-Expression)\b[^\n]*FromBase64String/i,
    /FromBase64String[^\n]*\|\s*(?:iex|Invoke-Expression)\b/i,
  ],
  says: "decodes something and runs it",
  trigger:
    /\|\s*(?:tr|rev)\s|rot_?13|maketrans|base64|base32|xxd|openssl|b64decode|b32decode|b85decode|a85decode|decodebytes|decompress|marshal\.loads|codecs\.decode|fromhex|unhexlify|atob|buffer\.from|frombase64string/,
});

export const encodedPowershell: AuditRule = lineRule({
  id: "encoded-powershell",
  severity: "high",
  reason: "an encoded PowerShell command hides what it runs",
  advice: "Ship the command as readable text; decode the base64 (UTF-16LE) to see what it ran.",
  sources: ["ATT&CK T1027", "ATT&CK T1059.001"],
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|en|enc|enco|encodedcommand)\s+["']?[A-Za-z0-9+/]{24,}={0,2}/i,
  ],
  says: "runs an encoded PowerShell command",
  trigger: /powershell|pwsh/,
});

export const cryptoMiner: AuditRule = lineRule({
  id: "crypto-miner",
  severity: "high",
  reason: "fetches or runs a cryptocurrency miner",
  advice: "Remove it: mining spends the user's machine and power for someone else.",
  sources: ["ATT&CK T1496"],
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    /\b(?:xmrig|minerd|cpuminer|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|nanominer)\b|stratum\+(?:tcp|ssl|tls):\/\/|--donate-level\b/i,
  ],
  says: "mentions a crypto miner",
  trigger:
    /xmrig|minerd|cpuminer|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|nanominer|stratum\+|--donate-level/,
});
