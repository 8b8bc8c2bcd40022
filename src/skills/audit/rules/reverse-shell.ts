import type { AuditRule, RuleHit } from "../types.js";
import { codeSeverity, lineRule, quoteLine } from "./line-rule.js";

/*
 * A shell handed to someone over the network. The one-liners are matched per line; the scripted
 * forms (a socket, then a shell bound to it) when both halves are in one script or code block.
 */

const ONE_LINERS = lineRule({
  id: "reverse-shell",
  severity: "high",
  reason: "opens a shell for a remote machine (a reverse or bind shell)",
  advice: "Remove it: a shell handed to another machine gives that machine the user's account.",
  sources: ["ATT&CK T1059", "CWE-506"],
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    /\/dev\/(?:tcp|udp)\/[^\s/]+\/\d+/,
    /\b(?:nc|ncat|netcat)\b[^\n]*\s-(?:e|c)\s+["']?(?:\/bin\/)?(?:ba|z)?sh\b/,
    /\bmkfifo\b[^\n]*\|\s*(?:nc|ncat|netcat)\b/,
    /\bsocat\b[^\n]*\bexec:[^\n]*\b(?:ba|z)?sh\b/i,
    /\bpty\.spawn\(\s*["']\/bin\/(?:ba|z)?sh["']/,
    /\bos\.dup2\(\s*\w+\.fileno\(\)\s*,\s*[012]\s*\)/,
  ],
  says: "opens a shell over the network",
  trigger: /\/dev\/(?:tcp|udp)\/|-[ec]\s+["']?(?:\/bin\/)?(?:ba|z)?sh\b|mkfifo|socat|pty\.spawn|dup2/,
});

/** A socket, and a shell whose input and output go through it. */
const SCRIPTED: readonly { socket: RegExp; shell: RegExp; what: string }[] = [
  {
    socket: /\bnew\s+net\.Socket\b|\bnet\.connect\s*\(|\bnet\.createConnection\s*\(/,
    shell: /\bspawn\s*\(\s*["'](?:\/bin\/(?:ba|z)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?)["']/,
    what: "a socket piped into a shell (Node)",
  },
  {
    socket: /Net\.Sockets\.TCPClient/i,
    shell: /\b(?:iex|Invoke-Expression)\b/i,
    what: "a TCP client whose input is run (PowerShell)",
  },
];

export const reverseShell: AuditRule = {
  ...ONE_LINERS,
  trigger: new RegExp([ONE_LINERS.trigger.source, ...SCRIPTED.map(({ socket }) => socket.source)].join("|")),
  check(unit): RuleHit[] {
    const hits = [...ONE_LINERS.check(unit)];
    const text = unit.text;
    for (const { socket, shell, what } of SCRIPTED) {
      if (!socket.test(text) || !shell.test(text)) continue;
      const index = unit.lines.findIndex((line) => socket.test(line));
      hits.push({ index, message: `opens a shell over the network, ${what}: ${quoteLine(unit.lines[index]!)}` });
    }
    return hits;
  },
};
