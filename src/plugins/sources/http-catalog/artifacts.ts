import { createHash } from "node:crypto";
import { errorMessage, UserError } from "../../../kernel/errors.js";
import { compare } from "../../../lib/compare.js";
import { unpackSkillArchive, type UnpackLimits } from "../../../skills/archives/unpack.js";
import type { Diagnostic, SourceSkill } from "../../../skills/types.js";
import type { RemoteDocuments } from "../../../remote/documents.js";
import { parseRemoteSkill } from "../../../remote/parse-skill.js";
import type { DiscoveryArtifactEntry } from "../../../skills/discovery/discovery-reader.js";

/** A skill read out of its artifact: every file's bytes, SKILL.md included, by path. */
export interface UnpackedSkill {
  readonly skill: SourceSkill;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

export interface ArtifactSettings {
  readonly source: string;
  readonly documents: RemoteDocuments;
  readonly maxFileBytes: number;
  readonly maxFrontmatterBytes: number;
  readonly unpackLimits: UnpackLimits;
}

/**
 * One 0.2.0 entry's artifact, fetched (kept by its digest: the same digest is the same bytes),
 * checked against the digest before anything else reads it, then unpacked (an archive) or taken
 * as the SKILL.md (skill-md). A mismatch or a refused archive is one diagnostic naming the skill.
 */
export async function loadArtifact(
  entry: DiscoveryArtifactEntry,
  settings: ArtifactSettings,
  signal: AbortSignal,
): Promise<{ loaded?: UnpackedSkill; diagnostics: Diagnostic[] }> {
  const fail = (code: string, message: string) => ({
    diagnostics: [{ severity: "error" as const, source: settings.source, path: entry.name, code, message }],
  });
  let bytes: Uint8Array;
  try {
    bytes = await settings.documents.immutable(`discovery/${entry.digest}`, entry.url, {
      maxBytes: settings.maxFileBytes,
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return fail("unreadable", `${entry.name}: ${entry.url} could not be downloaded: ${errorMessage(error)}`);
  }
  const actual = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (actual !== entry.digest) {
    return fail(
      "digest-mismatch",
      `${entry.name}: refused, the bytes at ${entry.url} have digest ${actual}, not the ${entry.digest} the index gives`,
    );
  }
  let files: Map<string, Uint8Array>;
  if (entry.type === "skill-md") {
    files = new Map([["SKILL.md", bytes]]);
  } else {
    try {
      files = new Map(
        (await unpackSkillArchive(bytes, `${entry.name}: ${entry.url}`, settings.unpackLimits)).map((file) => [
          file.path,
          file.bytes,
        ]),
      );
    } catch (error) {
      if (error instanceof UserError) return fail("archive-refused", `refused: ${error.message}`);
      throw error;
    }
  }
  const parsed = parseRemoteSkill(
    files.get("SKILL.md")!,
    { source: settings.source, path: entry.name, folderName: entry.name },
    {
      maxFrontmatterBytes: settings.maxFrontmatterBytes,
      maxSkillFileBytes: settings.maxFileBytes,
    },
  );
  if (!parsed.skill) return { diagnostics: [...parsed.diagnostics] };
  // The index names the skill: its name is what agents ask for, and what the index was checked under.
  return {
    loaded: {
      skill: { ...parsed.skill, name: entry.name },
      files: new Map([...files].sort(([a], [b]) => compare(a, b))),
    },
    diagnostics: [...parsed.diagnostics],
  };
}
