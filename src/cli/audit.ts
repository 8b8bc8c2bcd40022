import { basename, join, resolve } from "node:path";
import { fsOptionsSchema, type SkillFolder } from "../plugins/sources/fs/index.js";
import { auditSkill, MAX_AUDITED_BYTES } from "../skills/audit/audit-skill.js";
import type { SkillReader } from "../skills/files/skill-reader.js";
import { hasHighFinding } from "../skills/audit/audit.js";
import { renderAudit } from "../skills/audit/render.js";
import { toSarif } from "../skills/audit/sarif.js";
import type { AuditFormat } from "./args.js";
import type { AuditFinding } from "../skills/audit/types.js";
import { parseSkillMd } from "../skills/skill-md/skill-md.js";
import { findSkills } from "./skill-folder.js";
import type { CliIo } from "./io.js";

export interface AuditCliOptions {
  readonly format: AuditFormat;
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
export async function runAudit(path: string, options: AuditCliOptions, io: CliIo): Promise<number> {
  const found = await findSkills(resolve(io.cwd, path), { maxDepth, maxDirectories });
  if (found === undefined) {
    io.stderr.write(`skills-kernel: ${path} is not a folder\n`);
    return 2;
  }
  if (found.length === 0) {
    io.stderr.write(`skills-kernel: ${path} holds no skill (no SKILL.md at any depth)\n`);
    return 2;
  }
  const skills: AuditedSkill[] = [];
  for (const { folder, reader } of found) {
    const findings = await auditSkill(reader);
    skills.push({
      name: await nameOf(folder, reader),
      path: folder.path === "" ? path : join(path, folder.path),
      findings,
    });
  }
  if (options.format === "json") io.stdout.write(`${JSON.stringify({ skills }, null, 2)}\n`);
  else if (options.format === "sarif") io.stdout.write(`${JSON.stringify(toSarif(skills, io.cwd), null, 2)}\n`);
  else io.stdout.write(`${renderAudit(skills)}\n`);
  return skills.some((skill) => hasHighFinding(skill.findings)) ? 1 : 0;
}

/** The frontmatter's name, else the folder's (a skill without one is audited all the same). */
async function nameOf(folder: SkillFolder, reader: SkillReader): Promise<string> {
  const folderName = basename(folder.dir);
  const head = await reader.readDocument(MAX_AUDITED_BYTES).catch(() => undefined);
  if (!head) return folderName;
  const parsed = parseSkillMd(new TextDecoder().decode(head.bytes), {
    folderName,
    maxFrontmatterBytes: 64 * 1024,
    truncated: head.truncated,
  });
  return parsed.ok ? parsed.skill.name : folderName;
}
