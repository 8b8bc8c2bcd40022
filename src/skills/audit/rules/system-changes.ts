import type { AuditRule } from "../types.js";
import { codeSeverity, lineRule } from "./line-rule.js";

/*
 * Changes outside the task: start-up files that run at every login, the home folder or the
 * system deleted, privileges raised.
 */

const RC_FILE = String.raw`\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config/fish/config\.fish)\b`;
const HOME = String.raw`(?:~|\$HOME|\$\{HOME\}|/root|/home/[\w.-]+|/Users/[\w.-]+)`;

export const startupFileWrite: AuditRule = lineRule({
  id: "startup-file-write",
  severity: "high",
  reason: "writes to a shell start-up file, a PowerShell profile or a cron table, so code runs at every login",
  severityIn: codeSeverity("high", "low"),
  patterns: [
    new RegExp(String.raw`(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?${HOME}/${RC_FILE}`),
    /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?\/etc\/(?:profile|bash\.bashrc|zsh\/zshrc|environment)\b/,
    new RegExp(String.raw`\bopen\([^\n]*${RC_FILE}[^\n]*["'][aw]\+?["']`),
    new RegExp(String.raw`\b(?:appendFile|writeFile|createWriteStream)(?:Sync)?\([^\n]*${RC_FILE}`),
    /\b(?:Add-Content|Set-Content|Out-File)\b[^\n]*\$PROFILE\b|>>?\s*\$PROFILE\b/i,
    /\|\s*crontab\s+-(?:\s|$)/,
  ],
  says: "writes to a start-up file",
  trigger: /\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|config\/fish|\/etc\/profile|\/etc\/environment|bash\.bashrc|zsh\/zshrc|\$profile|crontab/,
});

const SYSTEM_DIRS = String.raw`/(?:etc|usr|bin|sbin|lib|lib64|boot|var|opt|System|Library|Users|home)?/?\*?`;

export const destructiveDelete: AuditRule = lineRule({
  id: "destructive-delete",
  severity: "high",
  reason: "deletes the home folder, the root or a system folder, or wipes a disk",
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    new RegExp(String.raw`\brm\s+(?:-[-a-zA-Z]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-[-a-zA-Z]+\s+)*["']?(?:${HOME}/?\*?|${SYSTEM_DIRS})["']?(?=\s|$|;|&|\|)`),
    /\bshutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*["']~\/?["']\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.environ\[["']HOME["']\]|["']\/["']|["']~\/?["'])\s*[,)]/,
    /\b(?:rmSync|rmdirSync|rimraf|rm|rmdir)\s*\(\s*(?:os\.homedir\(\)|homedir\(\)|process\.env\.HOME|["']\/["'])\s*[,)]/,
    /\bRemove-Item\b[^\n]*-Recurse\b[^\n]*(?:\$HOME|\$env:USERPROFILE|\s~|C:\\(?:Windows|Users)?\\?)(?=[\s"']|$)/i,
    /\b(?:rd|rmdir|del)\s+(?:\/[sqf]\s+)+["']?C:\\(?:Windows\\?)?["']?(?=\s|$)/i,
    /\bmkfs(?:\.\w+)?\s+\/dev\/(?:sd|nvme|hd|xvd|vd|disk)/,
    /\bdd\s+[^\n]*\bof=\/dev\/(?:sd|nvme|hd|xvd|vd|disk)/,
    /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/,
  ],
  says: "deletes something the task does not own",
  trigger: /rm\s+-|rmtree|rimraf|rmsync|rmdirsync|\brm\s*\(|\brmdir\s*\(|remove-item|(?:rd|rmdir|del)\s+\/|mkfs|of=\/dev\/|:\(\)/,
});

export const sudoersWrite: AuditRule = lineRule({
  id: "sudoers-write",
  severity: "high",
  reason: "grants passwordless root or edits the sudoers file",
  severityIn: codeSeverity("high", "medium"),
  patterns: [/(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?\/etc\/sudoers\b/, /\bNOPASSWD\s*:/, /\bchmod\s+(?:[ugoa]*\+s|[0-7]?[4-7][0-7]{3})\s/],
  says: "raises privileges for good",
  trigger: /sudoers|nopasswd|chmod/,
});

export const sudo: AuditRule = lineRule({
  id: "sudo",
  severity: "medium",
  reason: "a script runs a command as root (sudo, doas, RunAs)",
  severityIn: { script: "medium", frontmatter: "medium" },
  patterns: [/(?:^|[;&|`(]\s*|\b(?:then|do|else)\s+)(?:sudo|doas)\s+\S/, /\bStart-Process\b[^\n]*-Verb\s+["']?RunAs\b/i],
  unless: /^\s*(?:#|\/\/)/,
  says: "runs a command as root",
  trigger: /sudo|doas|runas/,
});
