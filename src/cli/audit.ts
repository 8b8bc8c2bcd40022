import { lstat, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { createLogger } from "../kernel/logger.js";
import { createSkillFiles } from "../plugins/fs/files.js";
import { fsOptionsSchema } from "../plugins/fs/index.js";
import { scanRoot, SKILL_FILES, type SkillFolder } from "../plugins/fs/scan.js";
import { auditSkill, MAX_AUDITED_BYTES } from "../skills/audit/audit-skill.js";
import { hasHighFinding } from "../skills/audit/audit.js";
import { renderAudit } from "../skills/audit/render.js";
import type { AuditFinding } from "../skills/audit/types.js";
import { parseSkillMd } from "../skills/skill-md.js";

export interface AuditCliOptions {
  readonly json: boolean;
}

export interface AuditedSkill {
  readonly name: string;
  /** As given on the command line, joined with the skill's path below it. */
  readonly path: string;
  readonly findings: readonly AuditFinding[];
}

// The fs plugin's own walk limits, so `audit DIR` finds exactly the skills a server on DIR serves.
const { maxDepth, maxDirectories } = fsOptionsSchema.parse({ roots: ["."] });

/**
 * `skills-kernel audit PATH`: every skill at or under PATH audited for risky content, read as the
 * fs source serves it (no links out, no files named like credentials). Exit code: 1 when any
 * skill has a high finding, 0 otherwise, 2 when PATH is not a folder or holds no skill.
 */
export async function runAudit(path: string, options: AuditCliOptions): Promise<number> {
  const absolute = resolve(process.cwd(), path);
  const isFolder = await stat(absolute).then((s) => s.isDirectory(), () => false);
  if (!isFolder) {
    process.stderr.write(`skills-kernel: ${path} is not a folder\n`);
    return 2;
  }
  const skills = await auditFolder(path, absolute);
  if (skills === undefined) {
    process.stderr.write(`skills-kernel: ${path} holds no skill (no SKILL.md at any depth)\n`);
    return 2;
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ skills }, null, 2)}\n`);
  else process.stdout.write(`${renderAudit(skills)}\n`);
  return skills.some((skill) => hasHighFinding(skill.findings)) ? 1 : 0;
}

/** The skills at or under `absolute`, audited one after another; undefined when there are none. */
export async function auditFolder(shown: string, absolute: string): Promise<AuditedSkill[] | undefined> {
  const isSkill = (await Promise.all(SKILL_FILES.map((name) => lstat(join(absolute, name)).then(() => true, () => false)))).includes(true);
  const scan = await scanRoot(absolute, { maxDepth: isSkill ? 0 : maxDepth, maxDirectories, logger: createLogger("warn"), signal: new AbortController().signal });
  if (scan.folders.length === 0) return undefined;
  const files = createSkillFiles();
  files.remember(scan.folders);
  const audited: AuditedSkill[] = [];
  for (const folder of scan.folders) {
    const reader = {
      readDocument: (maxBytes: number) => files.readDocument(folder.path, maxBytes),
      listFiles: (limit: number, signal?: AbortSignal) => files.listFiles(folder.path, limit, signal),
      readFile: (file: string, maxBytes: number) => files.readFile(folder.path, file, maxBytes),
    };
    const findings = await auditSkill(reader);
    audited.push({ name: await nameOf(folder, reader), path: folder.path === "" ? shown : join(shown, folder.path), findings });
  }
  return audited;
}

/** The frontmatter's name, else the folder's (a skill without one is audited all the same). */
async function nameOf(folder: SkillFolder, reader: { readDocument(maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> }): Promise<string> {
  const folderName = basename(folder.dir);
  const head = await reader.readDocument(MAX_AUDITED_BYTES).catch(() => undefined);
  if (!head) return folderName;
  const parsed = parseSkillMd(new TextDecoder().decode(head.bytes), { folderName, maxFrontmatterBytes: 64 * 1024, truncated: head.truncated });
  return parsed.ok ? parsed.skill.name : folderName;
}
