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
  advice: "Tell the user what to add to their start-up files instead of writing to them.",
  sources: ["ATT&CK T1546.004", "ATT&CK T1053"],
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
  trigger:
    /\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|config\/fish|\/etc\/profile|\/etc\/environment|bash\.bashrc|zsh\/zshrc|\$profile|crontab/,
});

/** Places that run code at login, boot or on a schedule, or let someone in: written, the change outlives the task. */
const PERSISTENT_PLACE = String.raw`authorized_keys2?\b|Library[/\\]Launch(?:Agents|Daemons)\b|/etc/cron(?:tab|\.d|\.daily|\.hourly|\.weekly|\.monthly)?\b|/var/spool/cron\b|/etc/systemd/system\b|\.config/systemd/user\b|\.config/autostart\b|/etc/init\.d\b|/etc/rc\.local\b|/etc/ld\.so\.preload\b|/etc/(?:passwd|shadow|group)\b|Start Menu[/\\]Programs[/\\]Startup|\.git/hooks/`;
/** A write, in any language: a redirection, tee, cp/mv/ln/install, open for writing, a write call. */
const WRITE = String.raw`(?:>>?|\btee\b|\b(?:cp|mv|ln|install|rsync)\s|\bopen\s*\(|\b(?:append|write)File(?:Sync)?\s*\(|\bcreateWriteStream\s*\(|\bwrite_text\s*\(|\bFile\.(?:write|open)\b|\b(?:Add|Set)-Content\b|\bOut-File\b|\bCopy-Item\b|\bNew-Item\b)`;

export const persistence: AuditRule = lineRule({
  id: "persistence",
  severity: "high",
  reason:
    "installs something that outlives the task: SSH authorized keys, cron, a launch agent, a systemd unit, a Run key, a scheduled task",
  advice: "Remove it, or tell the user how to set it up themselves: a skill's task ends when the task does.",
  sources: ["ATT&CK T1098.004", "ATT&CK T1053", "ATT&CK T1543", "ATT&CK T1547"],
  severityIn: codeSeverity("high", "low"),
  patterns: [
    new RegExp(String.raw`${WRITE}[^\n]*(?:${PERSISTENT_PLACE})`, "i"),
    new RegExp(String.raw`(?:${PERSISTENT_PLACE})[^\n]*(?:["']\s*,\s*["'][aw]\+?["']|\.(?:write|open)\b)`, "i"),
    /\blaunchctl\s+(?:load|bootstrap|submit)\b|\bsystemctl\s+(?:--user\s+)?enable\b|\bschtasks(?:\.exe)?\s+\/create\b|\bRegister-ScheduledTask\b|\b(?:New-Service|sc(?:\.exe)?\s+create)\b|\bat\s+now\b/i,
    /(?:\b(?:New|Set)-ItemProperty\b|\breg(?:\.exe)?\s+add\b)[^\n]*CurrentVersion\\+Run(?:Once)?\b/i,
    /\bcrontab\s+(?!-[lr]\b)(?:-u\s+\S+\s+)?["']?[\w./~$-]+["']?\s*$/,
    /\bsetcap\s+\S*cap_(?:setuid|setgid|sys_admin|dac_override)|\busermod\s+(?:-\S+\s+)*-a?G\s+(?:sudo|wheel|admin|root|docker)\b/i,
  ],
  says: "makes a change that outlives the task",
  trigger:
    /authorized_keys|launch(?:agents|daemons)|\/etc\/cron|spool\/cron|systemd|autostart|init\.d|rc\.local|ld\.so\.preload|\/etc\/(?:passwd|shadow|group)|startup|git\/hooks|launchctl|systemctl|schtasks|scheduledtask|new-service|sc(?:\.exe)?\s+create|\bat\s+now|currentversion|crontab|setcap|usermod/,
});

const SYSTEM_DIRS = String.raw`/(?:etc|usr|bin|sbin|lib|lib64|boot|var|opt|System|Library|Users|home)?/?\*?`;

/** A recursive delete or a shred, in any language. */
const DELETE = String.raw`\brm\b[^\n;&|]*\s-[a-zA-Z]*[rR]|["']rm["']\s*,\s*["']-[a-zA-Z]*[rR]|\brmtree\b|\brm(?:dir)?Sync\b|\brimraf\b|\bRemove-Item\b|\bfind\b[^\n;&|]*?(?=[^\n;&|]*(?:-delete\b|-exec\s+rm\b))|\bshred\b|\bFileUtils\.rm_rf?\b|\b(?:del|erase)\s+(?:\/[sqf]\s+)+|\brd\s+\/s`;
/** The home folder itself (not a folder in it), the user's keys and documents, in any language. */
const HOME_ITSELF = String.raw`(?:(?:~|\$HOME|\$\{HOME\}|\$env:(?:USERPROFILE|HOME)|%USERPROFILE%)(?:[/\\](?:\.ssh|\.gnupg|Documents|Desktop|Pictures))?[/\\]?\*?|(?:os\.)?homedir\(\)|Path\.home\(\)|expanduser\(\s*["']~[/\\]?["']\s*\)|process\.env\.(?:HOME|USERPROFILE)|os\.environ\[["']HOME["']\]|Dir\.home|ENV\[["']HOME["']\])(?=["'\s,;)|]|$)`;

export const destructiveDelete: AuditRule = lineRule({
  id: "destructive-delete",
  severity: "high",
  reason: "deletes the home folder, the root or a system folder, or wipes a disk",
  // Wiping a home folder or a disk is never an install step: high wherever an agent reads it.
  advice: "Remove it, or delete only paths the task created, named in full.",
  sources: ["ATT&CK T1485", "ATT&CK T1561"],
  severityIn: { script: "high", frontmatter: "high", "doc-code": "high", prose: "high" },
  warned: "medium",
  patterns: [
    new RegExp(
      String.raw`\brm\s+(?:-[-a-zA-Z]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-[-a-zA-Z]+\s+)*["']?(?:${HOME}/?\*?|${SYSTEM_DIRS})["']?(?=\s|$|;|&|\|)`,
    ),
    /\bshutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*["']~\/?["']\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.environ\[["']HOME["']\]|["']\/["']|["']~\/?["'])\s*[,)]/,
    /\b(?:rmSync|rmdirSync|rimraf|rm|rmdir)\s*\(\s*(?:os\.homedir\(\)|homedir\(\)|process\.env\.HOME|["']\/["'])\s*[,)]/,
    /\bRemove-Item\b[^\n]*-Recurse\b[^\n]*(?:\$HOME|\$env:USERPROFILE|\s~|C:\\(?:Windows|Users)?\\?)(?=[\s"']|$)/i,
    /\b(?:rd|rmdir|del)\s+(?:\/[sqf]\s+)+["']?C:\\(?:Windows\\?)?["']?(?=\s|$)/i,
    /\bmkfs(?:\.\w+)?\s+\/dev\/(?:sd|nvme|hd|xvd|vd|disk)/,
    /\bdd\s+[^\n]*\bof=\/dev\/(?:sd|nvme|hd|xvd|vd|disk)/,
    /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/,
    /\brm\b[^\n]*--no-preserve-root\b/,
    new RegExp(String.raw`(?:${DELETE})[^\n;&|]*?(?<![\w.-])${HOME_ITSELF}`),
    new RegExp(String.raw`(?<![\w.-])${HOME_ITSELF}[^\n;&]*\|\s*(?:Remove-Item|rm|del|xargs\s+(?:-\S+\s+)*rm)\b`, "i"),
    /\bformat(?:\.com)?\s+[A-Za-z]:(?=\s|$)|\b(?:Format-Volume|Clear-Disk)\b/i,
  ],
  says: "deletes something the task does not own",
  trigger:
    /\brm\b|rmtree|rimraf|rmsync|rmdirsync|\brmdir\s*\(|remove-item|(?:rd|rmdir|del|erase)\s+\/|mkfs|of=\/dev\/|:\(\)|-delete\b|-exec\s+rm\b|shred|fileutils\.rm|format(?:\.com)?\s+[a-z]:|format-volume|clear-disk/,
});

/** Files that say who may become root: sudoers and its drop-ins, doas, polkit rules. */
const PRIVILEGE_FILE = String.raw`\/etc\/(?:sudoers(?:\.d)?|doas\.conf|polkit-1\/(?:rules\.d|localauthority))\b`;

export const sudoersWrite: AuditRule = lineRule({
  id: "sudoers-write",
  severity: "high",
  reason: "grants passwordless root or edits who may become root (sudoers, doas, polkit)",
  advice: "Remove it: a skill has no business changing who may become root.",
  sources: ["ATT&CK T1548.003", "CWE-269"],
  severityIn: codeSeverity("high", "medium"),
  patterns: [
    // Any write (a redirect, tee, cp, sed -i, open for writing…) into one of those files.
    new RegExp(String.raw`(?:${WRITE}|\bsed\s+(?:-\S+\s+)*-i|\bvisudo\s+(?:-\S+\s+)*-f)[^\n]*${PRIVILEGE_FILE}`, "i"),
    new RegExp(String.raw`${PRIVILEGE_FILE}[^\n]*(?:["']\s*,\s*["'][aw]\+?["']|\.(?:write|open)\b)`, "i"),
    // Lines that grant root, whatever writes them: a sudoers rule for ALL, doas without a password.
    /\bNOPASSWD\s*:/,
    /^[^#\n]*\bALL\s*=\s*\(\s*ALL(?:\s*:\s*ALL)?\s*\)\s*(?:NOPASSWD\s*:\s*)?ALL\b/,
    /\bpermit\s+(?:nopass|persist|keepenv)\b/,
    // visudo fed by a pipe or an editor that writes for it.
    /\|\s*(?:sudo\s+)?(?:EDITOR=\S+\s+)?visudo\b|\b(?:SUDO_)?EDITOR=["']?(?:tee|cat|sed|cp)\b[^\n]*\bvisudo\b/,
    /\bchmod\s+(?:[ugoa]*\+s|[0-7]?[4-7][0-7]{3})\s/,
  ],
  says: "raises privileges for good",
  trigger: /sudoers|nopasswd|chmod|doas\.conf|polkit|visudo|=\s*\(\s*all\b|permit\s+(?:nopass|persist|keepenv)/,
});

export const sudo: AuditRule = lineRule({
  id: "sudo",
  severity: "medium",
  reason: "a script runs a command as root (sudo, doas, RunAs)",
  advice: "Check that the command needs root; prefer telling the user to run it.",
  sources: ["ATT&CK T1548.003", "CWE-250"],
  severityIn: { script: "medium", frontmatter: "medium" },
  patterns: [
    /(?:^|[;&|`(]\s*|\b(?:then|do|else)\s+)(?:sudo|doas)\s+\S/,
    /\bStart-Process\b[^\n]*-Verb\s+["']?RunAs\b/i,
  ],
  unless: /^\s*(?:#|\/\/)/,
  says: "runs a command as root",
  trigger: /sudo|doas|runas/,
});
