import { posix } from "node:path";
import { decodeText } from "../skills/files/skill-files.js";
import { parseSkillMd } from "../skills/skill-md/skill-md.js";
import type { Diagnostic, SourceSkill } from "../skills/types.js";

export interface ParsedRemoteSkill {
  readonly skill?: SourceSkill;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A downloaded SKILL.md read exactly as the fs source reads a local one: only its first
 * `maxSkillFileBytes` are parsed, under the same frontmatter limit, the folder name as fallback.
 */
export function parseRemoteSkill(
  bytes: Uint8Array,
  at: { readonly source: string; readonly path: string; readonly folderName?: string; readonly rank?: number },
  limits: { readonly maxFrontmatterBytes: number; readonly maxSkillFileBytes: number },
): ParsedRemoteSkill {
  const truncated = bytes.length > limits.maxSkillFileBytes;
  const result = parseSkillMd(decodeText(bytes.subarray(0, limits.maxSkillFileBytes), truncated), {
    folderName: at.folderName ?? posix.basename(at.path),
    maxFrontmatterBytes: limits.maxFrontmatterBytes,
    truncated,
  });
  if (!result.ok) return { diagnostics: [{ severity: "error", source: at.source, path: at.path, ...result.error }] };
  const { name, description, frontmatter, excerpt, warnings } = result.skill;
  return {
    skill: { name, description, path: at.path, frontmatter, excerpt, rank: at.rank ?? 0 },
    diagnostics: warnings.map((issue) => ({ severity: "warning", source: at.source, path: at.path, ...issue })),
  };
}
