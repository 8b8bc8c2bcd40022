// install_skill writes a copy into `.installing-…` inside the target folder and moves a replaced
// skill aside to `.replaced-…` until the copy is in place. A process killed meanwhile leaves them
// behind: scans must never take them (or a SKILL.md nested in a half copy) for skills, and the
// next install cleans them up. Names hold the pid of the installing process, so a leftover can be
// told from an install still running.

const STAGING = /^\.(installing|replaced)-(\d+)-([0-9a-f]+)-(.+)$/;

/** Whether a folder name is an install's temporary folder (today's or an older build's). */
export function isInstallStaging(name: string): boolean {
  return name.startsWith(".installing-") || name.startsWith(".replaced-");
}

export type StagingKind = "installing" | "replaced";

export function stagingName(kind: StagingKind, skillName: string, nonce: string): string {
  return `.${kind}-${process.pid}-${nonce}-${skillName}`;
}

export interface StagingFolder {
  readonly kind: StagingKind;
  readonly pid: number;
  /** The skill folder it belongs to. */
  readonly skillName: string;
}

export function parseStagingName(name: string): StagingFolder | undefined {
  const match = STAGING.exec(name);
  if (!match) return undefined;
  return { kind: match[1] as StagingKind, pid: Number(match[2]), skillName: match[4]! };
}
