import type { AuditRule, BinaryRule } from "../types.js";
import { executableBinary } from "./binary.js";
import { credentialAccess, credentialExfil, environmentExfil } from "./credentials.js";
import { bidiControl, hiddenComment, hiddenLinkText, unicodeTags, zeroWidthInWord } from "./hidden-text.js";
import { actWithoutAsking, concealFromUser, coverTracks, overrideInstructions } from "./instructions.js";
import {
  cryptoMiner,
  decodeExec,
  downloadAndRun,
  encodedPowershell,
  pipeToShell,
  remoteCodeExec,
  remoteInstructions,
} from "./remote-code.js";
import { excessivePermissions } from "./permissions.js";
import { reverseShell } from "./reverse-shell.js";
import { destructiveDelete, persistence, startupFileWrite, sudo, sudoersWrite } from "./system-changes.js";

/** Every text rule, in the order docs/security.md lists them. */
export const TEXT_RULES: readonly AuditRule[] = [
  overrideInstructions,
  concealFromUser,
  actWithoutAsking,
  coverTracks,
  hiddenComment,
  hiddenLinkText,
  unicodeTags,
  bidiControl,
  zeroWidthInWord,
  remoteInstructions,
  excessivePermissions,
  pipeToShell,
  downloadAndRun,
  remoteCodeExec,
  decodeExec,
  encodedPowershell,
  reverseShell,
  credentialExfil,
  environmentExfil,
  credentialAccess,
  startupFileWrite,
  persistence,
  destructiveDelete,
  sudoersWrite,
  sudo,
  cryptoMiner,
];

export const BINARY_RULES: readonly BinaryRule[] = [executableBinary];
